//! Estimation throughput on a mixed text of every corpus kind, beside the peers in the same run:
//! tiktoken-rs exact counting, and the vocabulary-free `token-estimate` and `tokenx-rs` crates.
//!
//! `cargo bench --features exact --bench estimate` (tiktoken-rs is behind the `exact` feature). The figures in the
//! README come from this benchmark (`-- mixed/` for the mixed text alone, `-- kind/` for one group per corpus kind).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use llm_preflight::{estimate, Estimator, Profile};
use std::path::Path;

/// The mixed text: every corpus sample's first 4,000 bytes (at a char boundary), kinds interleaved.
fn mixed_text() -> String {
    let lists = corpus_by_kind();
    let mut lists: Vec<Vec<String>> = lists.into_iter().map(|(_, l)| l).collect();
    let mut out = String::new();
    let mut i = 0;
    while out.len() < 4 << 20 && lists.iter().any(|l| i < l.len()) {
        for l in lists.iter_mut() {
            if let Some(t) = l.get(i) {
                out.push_str(head(t, 4000));
                out.push('\n');
            }
        }
        i += 1;
    }
    out
}

/// The first `n` bytes of `t`, cut back to a character boundary.
fn head(t: &str, n: usize) -> &str {
    let mut end = t.len().min(n);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &t[..end]
}

/// Every corpus kind's samples, kinds in name order.
fn corpus_by_kind() -> Vec<(String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut kinds: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir() && e.file_name() != "tools")
        .map(|e| e.path())
        .collect();
    kinds.sort();
    kinds
        .iter()
        .map(|k| {
            let mut files: Vec<_> = std::fs::read_dir(k)
                .expect("kind dir")
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            files.sort();
            let texts = files
                .iter()
                .filter_map(|f| std::fs::read_to_string(f).ok())
                .collect();
            let name = k
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            (name, texts)
        })
        .collect()
}

/// One content kind at a time (`cargo bench --features exact --bench estimate -- kind/`): each kind's samples, first
/// 4,000 bytes of each, estimated beside `token-estimate`, the fastest peer. Where the time goes, kind by kind.
fn per_kind(c: &mut Criterion) {
    let mut g = c.benchmark_group("kind");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_millis(300));
    g.measurement_time(std::time::Duration::from_secs(1));
    for (kind, texts) in corpus_by_kind() {
        let mut text = String::new();
        for t in &texts {
            text.push_str(head(t, 4000));
            text.push('\n');
        }
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("{kind}/llm-preflight"), |b| {
            b.iter(|| estimate(black_box(&text), Profile::O200k))
        });
        g.bench_function(format!("{kind}/token-estimate"), |b| {
            b.iter(|| token_estimate::estimate(black_box(&text), token_estimate::Profile::Mixed))
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let text = mixed_text();
    let mut g = c.benchmark_group("mixed");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(20);
    g.bench_function("llm-preflight estimate", |b| {
        b.iter(|| estimate(black_box(&text), Profile::O200k))
    });
    g.bench_function("llm-preflight streaming 64KiB chunks", |b| {
        b.iter(|| {
            let mut e = Estimator::new(Profile::O200k);
            for chunk in black_box(text.as_bytes()).chunks(64 * 1024) {
                e.update_bytes(chunk);
            }
            e.finish()
        })
    });
    g.bench_function("token-estimate", |b| {
        b.iter(|| token_estimate::estimate(black_box(&text), token_estimate::Profile::Mixed))
    });
    // The peer's content-aware call: it infers its profile from the text, as we detect the content kind.
    g.bench_function("token-estimate estimate_auto", |b| {
        b.iter(|| token_estimate::estimate_auto(black_box(&text)))
    });
    g.bench_function("tokenx-rs", |b| {
        b.iter(|| tokenx_rs::estimate_token_count(black_box(&text)))
    });
    g.bench_function("utf-8 char count (floor)", |b| {
        b.iter(|| black_box(&text).chars().count())
    });
    #[cfg(feature = "exact")]
    {
        let bpe = llm_preflight::ExactCounter::new(Profile::O200k).expect("o200k");
        g.sample_size(10);
        g.bench_function("tiktoken-rs o200k exact", |b| {
            b.iter(|| bpe.count(black_box(&text)))
        });
    }
    g.finish();
}

/// Per-call cost on short texts, what a gateway estimates most (`cargo bench --features exact --bench estimate --
/// short/`): the first N bytes of every `chat`, `prose-en` and `code-python` sample, N = 100, 1,000 and 4,000, one
/// call each. Criterion reports the time of the whole batch, and its throughput in calls a second.
fn short(c: &mut Criterion) {
    let kinds = ["chat", "prose-en", "code-python"];
    let corpus = corpus_by_kind();
    let mut g = c.benchmark_group("short");
    g.sample_size(20);
    for n in [100usize, 1000, 4000] {
        let texts: Vec<String> = corpus
            .iter()
            .filter(|(k, _)| kinds.contains(&k.as_str()))
            .flat_map(|(_, l)| l.iter())
            .map(|t| head(t, n).to_string())
            .collect();
        g.throughput(Throughput::Elements(texts.len() as u64));
        g.bench_function(format!("{n}B/llm-preflight"), |b| {
            b.iter(|| {
                for t in &texts {
                    black_box(estimate(black_box(t), Profile::O200k));
                }
            })
        });
        g.bench_function(format!("{n}B/token-estimate"), |b| {
            b.iter(|| {
                for t in &texts {
                    black_box(token_estimate::estimate(
                        black_box(t),
                        token_estimate::Profile::Mixed,
                    ));
                }
            })
        });
        #[cfg(feature = "exact")]
        {
            let bpe = llm_preflight::ExactCounter::new(Profile::O200k).expect("o200k");
            g.bench_function(format!("{n}B/tiktoken-rs o200k exact"), |b| {
                b.iter(|| {
                    for t in &texts {
                        black_box(bpe.count(black_box(t)));
                    }
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench, per_kind, short);
criterion_main!(benches);
