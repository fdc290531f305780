//! The drill's seams: where requests go ([`Upstream`]) and how time passes ([`Clock`]), with the simulated
//! implementations of both. The CLI implements them over HTTP and the wall clock.

use crate::sim;

/// A provider's raw answer: what came back over the wire, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, as received.
    pub headers: Vec<(String, String)>,
    /// The raw body (a JSON object, or a whole SSE stream).
    pub body: String,
    /// Milliseconds from sending to the first token (or first byte), when known.
    pub ttft_ms: Option<u64>,
    /// Milliseconds from sending to the end of the answer.
    pub latency_ms: u64,
}

/// Where the drill's requests go: provider `provider` (an index into [`DrillConfig::providers`](crate::DrillConfig::providers)).
pub trait Upstream {
    /// Sends one OpenAI chat request body at `now_ms`. `Err` when nothing came back at all (connection refused,
    /// timeout, an unreadable answer), with a message.
    fn send(&mut self, provider: usize, body: &str, now_ms: u64) -> Result<Reply, String>;
}

/// The drill's clock: brings the caller to `at_ms` and says what time it is then (never earlier than `at_ms`).
pub trait Clock {
    /// Waits (or jumps) until `at_ms`; returns the time reached.
    fn wait_until(&mut self, at_ms: u64) -> u64;
}

/// A simulated clock: every wait takes no time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SimClock;

impl Clock for SimClock {
    fn wait_until(&mut self, at_ms: u64) -> u64 {
        at_ms
    }
}

/// The simulated providers as an [`Upstream`].
#[derive(Debug, Clone)]
pub struct Simulated {
    /// One per configured provider, in the same order.
    pub providers: Vec<sim::SimProvider>,
}

impl Upstream for Simulated {
    fn send(&mut self, provider: usize, body: &str, now_ms: u64) -> Result<Reply, String> {
        match self.providers.get_mut(provider) {
            Some(p) => Ok(p.respond(body, now_ms)),
            None => Err(format!("no simulated provider {provider}")),
        }
    }
}
