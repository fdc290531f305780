//! A ledger that several gateways share: the seam a [`Guard`](crate::Guard) reserves through when the budget is
//! not this process's alone (the Redis ledger of `llm-preflight-redis` implements it; so does the in-process
//! [`Ledger`], for guards in one process that share a key).
//!
//! The guard keeps its own ledger and admission queue per target (ordering, waiting, shedding by the deadline) and
//! takes the shared ledger as a second gate at the moment of sending: admitted there, the call is sent and its
//! ticket settled or released with its local reservation; refused there ("not yet"), the local reservation is
//! given back and the call waits the shared ledger's wait; unreachable, the guard fails open or closed as it was
//! built ([`LedgerFailure`]), and every event says which ([`LedgerMode`]).
//!
//! The trait is synchronous: an implementation that does I/O (a Redis round trip) does it inside `reserve`,
//! `observe`, `settle` and `release`, bounded by its own timeouts; the core itself still reads no clock and opens
//! no socket.

use super::ledger::{Ledger, Refused, Reservation, Usage};
use super::policy::Policy;
use super::verdict::Cost;
use crate::headers::RateLimitSnapshot;
use serde::Serialize;
use std::fmt;

/// Which ledger a decision was made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerMode {
    /// The shared ledger.
    Shared,
    /// The shared ledger was unreachable and the decision was made without it (by a local share of the budget,
    /// or by the guard's own ledger alone).
    FailOpen,
    /// The shared ledger was unreachable and the request was refused for it.
    FailClosed,
}

impl LedgerMode {
    /// `shared`, `fail_open` or `fail_closed`.
    pub const fn name(self) -> &'static str {
        match self {
            LedgerMode::Shared => "shared",
            LedgerMode::FailOpen => "fail_open",
            LedgerMode::FailClosed => "fail_closed",
        }
    }
}

/// What a guard does when its shared ledger cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerFailure {
    /// Refuse to send on that target (fall back, or answer 503): never over-admits (the default).
    #[default]
    FailClosed,
    /// Send on the guard's own ledger's admission alone: keeps serving, may over-admit by what other replicas send.
    FailOpen,
}

/// What a shared ledger decided for one reservation.
#[derive(Debug)]
pub enum SharedAdmission {
    /// Reserved: settle or release the ticket when the response ends.
    Admitted {
        /// The capacity held.
        ticket: Box<dyn SharedTicket>,
        /// Where it was decided ([`LedgerMode::Shared`], or [`LedgerMode::FailOpen`] when the implementation
        /// decided on a local fallback of its own).
        mode: LedgerMode,
    },
    /// Not now, or never.
    Refused {
        /// Why.
        refused: Refused,
        /// Where it was decided.
        mode: LedgerMode,
    },
    /// The ledger could not be reached and decided nothing: the guard's [`LedgerFailure`] decides.
    Unavailable {
        /// What failed, for a person.
        error: String,
    },
}

/// A budget shared beyond this guard: reserve at the send; the ticket then folds in the provider's headers and is
/// settled or released at the end. Implementations must not panic; an unreachable store is
/// [`SharedAdmission::Unavailable`].
pub trait SharedLedger: Send + Sync + fmt::Debug {
    /// Reserves `cost` at `now_ms` if it fits now (decided at `policy`'s end of the band).
    fn reserve(&self, cost: &Cost, policy: Policy, now_ms: u64) -> SharedAdmission;
}

/// Capacity held in a [`SharedLedger`] for one request. Dropping it unsettled must give it back (as
/// [`Reservation`]'s drop does).
pub trait SharedTicket: Send + fmt::Debug {
    /// Folds in what the headers of this request's response said of the budget (the ticket knows its order, so
    /// a slow response never overwrites a newer one); `Err` (a message) when it could not be stored.
    fn observe(&self, snapshot: &RateLimitSnapshot, now_ms: u64) -> Result<(), String>;
    /// Charges what the provider reported and gives back the rest; `Err` (a message) when the store could not be
    /// reached (the implementation's expiry then frees it).
    fn settle(self: Box<Self>, usage: Usage, now_ms: u64) -> Result<(), String>;
    /// Gives the whole reservation back.
    fn release(self: Box<Self>, now_ms: u64) -> Result<(), String>;
}

impl SharedLedger for Ledger {
    fn reserve(&self, cost: &Cost, policy: Policy, now_ms: u64) -> SharedAdmission {
        match self.try_reserve(cost, policy, now_ms) {
            Ok(r) => SharedAdmission::Admitted {
                ticket: Box::new(r),
                mode: LedgerMode::Shared,
            },
            Err(refused) => SharedAdmission::Refused {
                refused,
                mode: LedgerMode::Shared,
            },
        }
    }
}

impl SharedTicket for Reservation {
    fn observe(&self, snapshot: &RateLimitSnapshot, now_ms: u64) -> Result<(), String> {
        self.ledger().observe(snapshot, now_ms);
        Ok(())
    }

    fn settle(self: Box<Self>, usage: Usage, now_ms: u64) -> Result<(), String> {
        Reservation::settle(*self, usage, now_ms);
        Ok(())
    }

    fn release(self: Box<Self>, _now_ms: u64) -> Result<(), String> {
        Reservation::release(*self);
        Ok(())
    }
}
