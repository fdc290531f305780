//! Replaying a skip rule against an operator's own log ([`Backtest`] → [`BacktestReport`]): what skipping
//! never-sendable requests would have prevented, what it would have held back needlessly, and the trend.

use super::log::{bad, LogRow, RowError};
use crate::content::ContentKind;
use crate::dimension::Dimension;
use crate::estimate::{estimate, estimate_chars};
use crate::preflight::budget::{Budget, Provider};
use crate::preflight::policy::Policy;
use crate::preflight::state::State;
use crate::preflight::verdict::{Cost, VerdictKind};
use crate::profile_file::Tables;
use crate::svg;
use crate::time::iso_hour;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::num::NonZeroU64;

/// What happened to a logged request, by the status it got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Succeeded,
    Refused,
    OtherFailure,
}

fn outcome(status: u16) -> Outcome {
    match status {
        200..=299 => Outcome::Succeeded,
        413 | 429 => Outcome::Refused,
        _ => Outcome::OtherFailure,
    }
}

/// One rule's tally: every row lands in exactly one of the six cells.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RuleTally {
    /// Skipped, and the provider had refused it (413 or 429): a refusal prevented.
    pub skipped_refused: u64,
    /// Skipped, but it had succeeded: a false skip.
    pub skipped_succeeded: u64,
    /// Skipped; it had failed some other way.
    pub skipped_other: u64,
    /// Sent, and refused: a refusal the rule did not prevent.
    pub sent_refused: u64,
    /// Sent and succeeded.
    pub sent_succeeded: u64,
    /// Sent; it failed some other way.
    pub sent_other: u64,
    /// Of the skipped: truly never-sendable (reported prompt plus reserved output over the limit): doomed round
    /// trips avoided.
    pub doomed_avoided: u64,
    /// Truly never-sendable, yet sent.
    pub doomed_sent: u64,
}

impl RuleTally {
    fn add(&mut self, skip: bool, o: Outcome, doomed: bool) {
        let cell = match (skip, o) {
            (true, Outcome::Refused) => &mut self.skipped_refused,
            (true, Outcome::Succeeded) => &mut self.skipped_succeeded,
            (true, Outcome::OtherFailure) => &mut self.skipped_other,
            (false, Outcome::Refused) => &mut self.sent_refused,
            (false, Outcome::Succeeded) => &mut self.sent_succeeded,
            (false, Outcome::OtherFailure) => &mut self.sent_other,
        };
        *cell += 1;
        if doomed {
            if skip {
                self.doomed_avoided += 1;
            } else {
                self.doomed_sent += 1;
            }
        }
    }

    /// Rows tallied (the six cells).
    pub fn rows(&self) -> u64 {
        self.skipped_refused
            + self.skipped_succeeded
            + self.skipped_other
            + self.sent_refused
            + self.sent_succeeded
            + self.sent_other
    }

    /// Refusals in the log.
    pub fn refusals(&self) -> u64 {
        self.skipped_refused + self.sent_refused
    }
}

/// Counts per time bin.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TrendPoint {
    /// Bin start, Unix milliseconds.
    pub start_ms: i64,
    /// Rows.
    pub rows: u64,
    /// Refusals.
    pub refusals: u64,
    /// Refusals the never-sendable rule would have prevented.
    pub prevented: u64,
    /// Rows it would have skipped that succeeded.
    pub false_skips: u64,
}

/// Replays a log against a limit: what "skip what is never-sendable" (and optionally a plain character cap) would
/// have done.
#[derive(Debug, Clone)]
pub struct Backtest<'a> {
    tables: Tables<'a>,
    policy: Policy,
    state: State,
    max_chars: Option<u64>,
    never: RuleTally,
    chars_cap: RuleTally,
    hours: BTreeMap<i64, TrendPoint>,
    untimed: u64,
    priced_as_prose: u64,
}

const HOUR_MS: i64 = 3_600_000;

impl<'a> Backtest<'a> {
    /// A replay against `tokens_per_minute` (charged as `provider` charges: OpenAI reserves the output cap at
    /// admission), pricing prompts with `tables` at the `policy`'s point of the band.
    pub fn new(
        tables: impl Into<Tables<'a>>,
        provider: Provider,
        tokens_per_minute: NonZeroU64,
        policy: Policy,
        max_chars: Option<u64>,
    ) -> Self {
        let budget = Budget::new(provider).tokens_per_minute(tokens_per_minute);
        Backtest {
            tables: tables.into(),
            policy,
            state: State::new(budget, 0),
            max_chars,
            never: RuleTally::default(),
            chars_cap: RuleTally::default(),
            hours: BTreeMap::new(),
            untimed: 0,
            priced_as_prose: 0,
        }
    }

    /// Adds one row; it needs `prompt_tokens`, `status`, and `text` or `chars`.
    pub fn add(&mut self, row: &LogRow) -> Result<(), RowError> {
        let truth = row
            .prompt_tokens
            .ok_or_else(|| bad("no `prompt_tokens` (the provider's reported usage)"))?;
        let status = row.status.ok_or_else(|| bad("no `status`"))?;
        let est = match (&row.text, row.chars) {
            (Some(t), _) => estimate(t, self.tables),
            (None, Some(c)) => {
                if row.content.is_none() {
                    self.priced_as_prose += 1;
                }
                estimate_chars(c, row.content.unwrap_or(ContentKind::Prose), self.tables)
            }
            (None, None) => return Err(bad("neither `text` nor `chars`")),
        };
        let mut cost = Cost::estimated(&est);
        cost.max_output = row.max_tokens;
        let check = self.state.check(&cost, self.policy, 0);
        let skip = check.verdict.kind() == VerdictKind::NeverSendable;
        let doomed = self
            .state
            .budget
            .limit(Dimension::Tokens)
            .is_some_and(|limit| {
                self.state
                    .budget
                    .needed(Dimension::Tokens, truth, row.max_tokens)
                    > limit
            });
        let o = outcome(status);
        self.never.add(skip, o, doomed);
        if let Some(cap) = self.max_chars {
            self.chars_cap.add(est.chars > cap, o, doomed);
        }
        match row.ts_ms {
            Some(ts) => {
                let h = self.hours.entry(ts.div_euclid(HOUR_MS)).or_default();
                h.rows += 1;
                if o == Outcome::Refused {
                    h.refusals += 1;
                    if skip {
                        h.prevented += 1;
                    }
                }
                if skip && o == Outcome::Succeeded {
                    h.false_skips += 1;
                }
            }
            None => self.untimed += 1,
        }
        Ok(())
    }

    /// The report; the trend in at most `max_bins` bins of whole hours.
    pub fn finish(&self, max_bins: usize) -> BacktestReport {
        let mut trend: Vec<TrendPoint> = Vec::new();
        let mut per = 1;
        if let (Some((&first, _)), Some((&last, _))) =
            (self.hours.first_key_value(), self.hours.last_key_value())
        {
            let span = last - first + 1;
            let bins_max = max_bins.max(1) as i64;
            per = ((span + bins_max - 1) / bins_max).max(1);
            // Every bin from the first hour to the last, empty ones included, so the chart's x axis is time.
            let bins = (span + per - 1) / per;
            trend = (0..bins)
                .map(|b| TrendPoint {
                    start_ms: (first + b * per) * HOUR_MS,
                    ..TrendPoint::default()
                })
                .collect();
            for (&h, p) in &self.hours {
                let t = &mut trend[((h - first) / per) as usize];
                t.rows += p.rows;
                t.refusals += p.refusals;
                t.prevented += p.prevented;
                t.false_skips += p.false_skips;
            }
        }
        BacktestReport {
            profile: self.tables.name().to_string(),
            tokens_per_minute: self.state.budget.limit(Dimension::Tokens).unwrap_or(1),
            policy: self.policy,
            rows: self.never.rows(),
            refusals: self.never.refusals(),
            never_sendable: self.never,
            max_chars: self.max_chars,
            char_cap: self.max_chars.map(|_| self.chars_cap),
            priced_as_prose: self.priced_as_prose,
            untimed: self.untimed,
            trend_bin_hours: per as u64,
            trend,
        }
    }
}

/// What the replay found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BacktestReport {
    /// The profile prompts were priced with.
    pub profile: String,
    /// The limit replayed against.
    pub tokens_per_minute: u64,
    /// The band point decided on.
    pub policy: Policy,
    /// Rows replayed.
    pub rows: u64,
    /// Refusals (413, 429) in the log.
    pub refusals: u64,
    /// The rule "skip what is never-sendable".
    pub never_sendable: RuleTally,
    /// The character cap, when one was given.
    pub max_chars: Option<u64>,
    /// The rule "skip what is longer than `max_chars`".
    pub char_cap: Option<RuleTally>,
    /// Length-only rows without `content`, priced as prose.
    pub priced_as_prose: u64,
    /// Rows without `ts` (not in the trend).
    pub untimed: u64,
    /// Hours per trend bin.
    pub trend_bin_hours: u64,
    /// Refusals, prevented refusals and false skips over time.
    pub trend: Vec<TrendPoint>,
}

impl BacktestReport {
    /// The trend as text: one line per bin with bars.
    pub fn trend_chart(&self) -> String {
        let mut s = String::new();
        let max = self
            .trend
            .iter()
            .map(|t| t.refusals.max(t.false_skips))
            .max()
            .unwrap_or(0)
            .max(1);
        let bar = |n: u64, c: char| -> String {
            let w = (n as f64 / max as f64 * 40.0).round() as usize;
            c.to_string().repeat(w)
        };
        for t in &self.trend {
            let _ = writeln!(
                s,
                "{}  refused {:>6} {:<40}  prevented {:>6}  false skips {:>5} {}",
                iso_hour(t.start_ms),
                t.refusals,
                bar(t.refusals, '#'),
                t.prevented,
                t.false_skips,
                bar(t.false_skips, '!')
            );
        }
        s
    }

    /// The trend as an SVG chart: refusals, prevented refusals and false skips per bin.
    pub fn svg(&self) -> String {
        let (w, h, left, top, bottom) = (720.0, 300.0, 50.0, 40.0, 40.0);
        let plot_w = w - left - 20.0;
        let plot_h = h - top - bottom;
        let n = self.trend.len().max(1);
        let max = self
            .trend
            .iter()
            .map(|t| t.refusals.max(t.false_skips))
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}\n<title>Backtest at {} tokens per minute</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            svg::open(w, h, 12),
            self.tokens_per_minute
        );
        let _ = writeln!(
            s,
            "<text x=\"{left}\" y=\"20\">per {} h: refusals (grey), prevented by skipping never-sendable (green), false skips (red)</text>",
            self.trend_bin_hours
        );
        let bw = plot_w / n as f64;
        for (i, t) in self.trend.iter().enumerate() {
            let x = left + i as f64 * bw;
            for (class, v, colour, dx) in [
                ("refusals", t.refusals, "#999", 0.0),
                ("prevented", t.prevented, "#2e8b57", 0.0),
                ("false-skips", t.false_skips, "#c0392b", bw / 2.0),
            ] {
                if v == 0 {
                    continue;
                }
                let bh = v as f64 / max * plot_h;
                let width = if class == "false-skips" {
                    bw / 2.0
                } else {
                    bw * 0.9
                };
                let _ = writeln!(
                    s,
                    "<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{colour}\"/>",
                    x + dx,
                    top + plot_h - bh,
                    width.max(0.5)
                );
            }
        }
        let axis_y = top + plot_h;
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{axis_y}\" y2=\"{axis_y}\" stroke=\"black\"/>",
            left + plot_w
        );
        if let (Some(a), Some(b)) = (self.trend.first(), self.trend.last()) {
            let _ = writeln!(
                s,
                "<text x=\"{left}\" y=\"{:.1}\">{}</text>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                axis_y + 16.0,
                iso_hour(a.start_ms),
                left + plot_w,
                axis_y + 16.0,
                iso_hour(b.start_ms)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}
