//! Gateway log rows, as `llm-preflight calibrate` and `backtest` read them: every line parsed, fed to a calibration
//! and a backtest, and both finished. Nothing may panic; every row lands in exactly one backtest cell.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::Profile;
use llm_preflight::{parse_row, Backtest, Calibration};
use llm_preflight::{Policy, Provider};
use std::num::NonZeroU64;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut fit = Calibration::with_reservoir(Profile::O200k, 8);
    let mut bt = Backtest::new(
        Profile::Llama3,
        Provider::OpenAi,
        NonZeroU64::new(1000).unwrap(),
        Policy::Conservative,
        Some(50),
    );
    let mut used = 0;
    for line in text.lines() {
        match parse_row(line) {
            Ok(Some(row)) => {
                let _ = fit.add(&row);
                if bt.add(&row).is_ok() {
                    used += 1;
                }
            }
            Ok(None) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    if let Ok((p, report)) = fit.finish("fuzz") {
        let _ = report.svg();
        let _ = p.to_json();
    }
    let r = bt.finish(24);
    assert_eq!(r.rows, used);
    assert_eq!(r.never_sendable.rows(), used);
    let _ = r.svg();
    let _ = r.trend_chart();
});
