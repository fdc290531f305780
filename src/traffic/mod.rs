//! Your own traffic: fit a profile to a gateway's logged requests, and replay what a skip rule would have done.
//!
//! Sans-I/O like the rest of the core: the caller reads the log (any size, streamed) and hands each line to
//! [`parse_row`], then to a [`Calibration`] or a [`Backtest`]; memory stays bounded whatever the log's length
//! (per content kind at most `RESERVOIR` observations are kept, a uniform sample beyond that, drawn by a fixed-seed
//! generator so the same log always gives the same answer).
//!
//! A log row is what gateways log, one JSON object per line:
//! `{"text": "...", "prompt_tokens": N}` or, where text is not kept, `{"chars": N, "content": "<kind>", "prompt_tokens":
//! N}` (the provider's reported usage), with optional `completion_tokens`, `max_tokens`, `model`, `route`, `status`
//! and `ts` (Unix seconds or milliseconds, or an RFC 3339 date).

mod backtest;
mod calibration;
mod log;

pub use backtest::{Backtest, BacktestReport, RuleTally, TrendPoint};
pub use calibration::{
    Calibration, CalibrationReport, CapReport, FittedBand, Histogram, KindReport, MAX_ROUTES,
    MIN_ROWS, OWN_WIDTH_ROWS, RESERVOIR,
};
pub use log::{parse_row, parse_ts, LogRow, RowError};
