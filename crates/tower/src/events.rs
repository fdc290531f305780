//! Each call's events, handed to the callback, and (by feature) to `tracing` and the `metrics` facade.

use crate::Shared;
use llm_preflight::{Call, CallEvent};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One event of one call, as [`crate::LayerConfig::on_event`] gets it.
#[derive(Debug, Clone, Copy)]
pub struct Event<'a> {
    /// The call's number (from 1, in arrival order).
    pub call: u64,
    /// When it happened, in milliseconds since the layer was made.
    pub at_ms: u64,
    /// The upstream it is about (for a fallback, the one left), by its target's name.
    pub provider: Option<&'a str>,
    /// What happened.
    pub event: &'a CallEvent,
}

/// Hands a call's events on as they come.
pub(crate) struct Emitter {
    shared: Arc<Shared>,
    id: u64,
    #[cfg_attr(not(feature = "metrics"), allow(dead_code))]
    started_ms: u64,
    #[cfg_attr(not(feature = "metrics"), allow(dead_code))]
    queued_at: Option<u64>,
}

impl Emitter {
    pub(crate) fn new(shared: Arc<Shared>, started_ms: u64) -> Emitter {
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        Emitter {
            shared,
            id,
            started_ms,
            queued_at: None,
        }
    }

    pub(crate) fn now_ms(&self) -> u64 {
        self.shared.now_ms()
    }

    pub(crate) fn random(&self) -> f64 {
        self.shared.random()
    }

    pub(crate) fn emit(&mut self, call: &mut Call) {
        let shared = self.shared.clone();
        for (at_ms, event) in call.take_events() {
            let provider = event
                .target()
                .and_then(|t| shared.names.get(t))
                .map(String::as_str);
            if let Some(f) = shared.on_event() {
                f(&Event {
                    call: self.id,
                    at_ms,
                    provider,
                    event: &event,
                });
            }
            #[cfg(feature = "tracing")]
            trace(self.id, at_ms, provider, &event);
            #[cfg(feature = "metrics")]
            self.record(at_ms, provider.unwrap_or(""), &event);
        }
    }

    #[cfg(feature = "metrics")]
    fn record(&mut self, at_ms: u64, provider: &str, event: &CallEvent) {
        use metrics::{counter, gauge, histogram};
        let p = provider.to_string();
        counter!("llm_preflight_events_total", "event" => event.name(), "provider" => p.clone())
            .increment(1);
        match *event {
            CallEvent::Refused { kind, .. } => {
                counter!("llm_preflight_refusals_total", "provider" => p, "kind" => kind.name())
                    .increment(1);
            }
            CallEvent::Queued { .. } => self.queued_at = Some(at_ms),
            CallEvent::Admitted { .. } => {
                if let Some(q) = self.queued_at.take() {
                    histogram!("llm_preflight_queue_wait_seconds", "provider" => p)
                        .record(at_ms.saturating_sub(q) as f64 / 1000.0);
                }
            }
            CallEvent::Settled {
                estimated_tokens,
                reported_tokens: Some(reported),
                ..
            } if estimated_tokens > 0 => {
                histogram!("llm_preflight_prompt_ratio", "provider" => p)
                    .record(reported as f64 / estimated_tokens as f64);
            }
            CallEvent::Calibrated { ratio, .. } => {
                gauge!("llm_preflight_learned_ratio", "provider" => p).set(ratio);
            }
            CallEvent::Ended { end } => {
                counter!("llm_preflight_calls_total", "end" => end).increment(1);
                histogram!("llm_preflight_call_seconds", "end" => end)
                    .record(at_ms.saturating_sub(self.started_ms) as f64 / 1000.0);
                let g = &self.shared.guard;
                gauge!("llm_preflight_held_tokens").set(g.held_tokens() as f64);
                gauge!("llm_preflight_in_flight").set(g.in_flight() as f64);
            }
            _ => {}
        }
    }
}

#[cfg(feature = "tracing")]
fn trace(call: u64, at_ms: u64, provider: Option<&str>, event: &CallEvent) {
    let provider = provider.unwrap_or("");
    let name = event.name();
    match event {
        CallEvent::TransportError { .. } | CallEvent::LedgerError { .. } => {
            tracing::warn!(call, at_ms, provider, event = name, detail = ?event, "llm-preflight")
        }
        CallEvent::Shed { .. }
        | CallEvent::NeverSendable { .. }
        | CallEvent::Refused { .. }
        | CallEvent::FellBack { .. }
        | CallEvent::BreakerOpen { .. } => {
            tracing::info!(call, at_ms, provider, event = name, detail = ?event, "llm-preflight")
        }
        _ => tracing::debug!(call, at_ms, provider, event = name, detail = ?event, "llm-preflight"),
    }
}
