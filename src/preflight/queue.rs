//! An admission queue bounded in seconds of work, with deadlines, shedding at once with a designed answer.
//!
//! Sans-I/O: the caller [`offer`](AdmissionQueue::offer)s requests and asks [`poll`](AdmissionQueue::poll) "what is
//! due now, and when should I wake you next". The queue never sleeps, spawns or reads a clock.
//!
//! The bound is not a request count: each queued request stands for the milliseconds of refill its cost takes at
//! the budget's nominal rate (a 4,000-token request on an 8,000 TPM key is 30 s of work), and a request is
//! refused when it could only start more than `max_work_ms` from now. Each request carries a deadline, the
//! latest time it may start; one that cannot start by then is shed immediately, never left to time out, with an
//! answer saying what happened, why, and when to come back.

use super::ledger::{Ledger, Refused, Reservation};
use super::policy::Policy;
use super::verdict::{Cost, Verdict};
use crate::dimension::Dimension;
use serde::Serialize;
use std::collections::VecDeque;

/// Why a request was shed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ShedReason {
    /// It exceeds a whole limit by itself: shrink it by `excess` tokens, or send it elsewhere.
    NeverSendable {
        /// Which limit.
        dimension: Dimension,
        /// The limit.
        limit: u64,
        /// What it needs.
        needed: u64,
        /// By how much it must shrink.
        excess: u64,
    },
    /// It could not start before its deadline.
    DeadlineUnreachable {
        /// The earliest time it could start.
        earliest_start_ms: u64,
        /// Its deadline.
        deadline_ms: u64,
    },
    /// The queue already holds more work than its bound.
    QueueFull {
        /// Milliseconds of work the request would have waited behind.
        work_ms: u64,
        /// The queue's bound.
        max_work_ms: u64,
    },
}

/// The designed answer for a shed request: what, why, and when to come back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shed {
    /// Why.
    #[serde(flatten)]
    pub reason: ShedReason,
    /// Milliseconds from now after which offering it again could succeed; `None` when waiting never helps.
    pub retry_after_ms: Option<u64>,
    /// A sentence for a person.
    pub message: String,
}

impl Shed {
    pub(crate) fn new(reason: ShedReason, now_ms: u64) -> Shed {
        let (retry_after_ms, message) = match reason {
            ShedReason::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            } => (
                None,
                format!(
                    "never sendable: needs {needed} against a {dimension} limit of {limit}; shrink it by {excess} or send it to a larger budget"
                ),
            ),
            ShedReason::DeadlineUnreachable {
                earliest_start_ms,
                deadline_ms,
            } => (
                Some(earliest_start_ms.saturating_sub(now_ms)),
                format!(
                    "cannot start before its deadline: earliest start in {} ms, deadline in {} ms",
                    earliest_start_ms.saturating_sub(now_ms),
                    deadline_ms.saturating_sub(now_ms)
                ),
            ),
            ShedReason::QueueFull { work_ms, max_work_ms } => (
                Some(work_ms.saturating_sub(max_work_ms)),
                format!(
                    "queue full: {work_ms} ms of work ahead, bound {max_work_ms} ms; come back in {} ms",
                    work_ms.saturating_sub(max_work_ms)
                ),
            ),
        };
        Shed {
            reason,
            retry_after_ms,
            message,
        }
    }
}

/// The answer to an offer.
#[derive(Debug)]
pub enum Offer<T> {
    /// Admitted now: send it, then settle or release the reservation.
    Admitted {
        /// The request.
        item: T,
        /// The capacity it holds.
        reservation: Reservation,
    },
    /// Queued: expected to start at `eta_ms`; [`AdmissionQueue::poll`] will hand it out.
    Queued {
        /// Expected start.
        eta_ms: u64,
        /// Requests ahead of it.
        position: usize,
    },
    /// Shed at once.
    Shed {
        /// The request, handed back.
        item: T,
        /// Why, and when to come back.
        shed: Shed,
    },
}

/// What is due now.
#[derive(Debug)]
pub struct Poll<T> {
    /// Requests to send now, each with its reservation.
    pub admitted: Vec<(T, Reservation)>,
    /// Requests shed now (their deadline became unreachable, or the budget shrank under them).
    pub shed: Vec<(T, Shed)>,
    /// When to call [`AdmissionQueue::poll`] again; `None` when the queue is empty.
    pub wake_at_ms: Option<u64>,
}

#[derive(Debug)]
struct Entry<T> {
    item: T,
    cost: Cost,
    deadline_ms: u64,
}

/// A FIFO admission queue over a [`Ledger`], bounded in milliseconds of work.
#[derive(Debug)]
pub struct AdmissionQueue<T> {
    ledger: Ledger,
    policy: Policy,
    max_work_ms: u64,
    entries: VecDeque<Entry<T>>,
}

impl<T> AdmissionQueue<T> {
    /// A queue admitting against `ledger` under `policy`, holding at most `max_work_ms` of work.
    pub fn new(ledger: Ledger, policy: Policy, max_work_ms: u64) -> Self {
        AdmissionQueue {
            ledger,
            policy,
            max_work_ms,
            entries: VecDeque::new(),
        }
    }

    /// Requests waiting.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The ledger admissions are taken from.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// When a request with `cost` could start if it waited behind a request starting at `prev`.
    fn start_of(&self, cost: &Cost, prev: Option<u64>, now_ms: u64) -> (u64, Verdict) {
        let (work, v) = self.ledger.work_and_verdict(cost, self.policy, now_ms);
        let alone = now_ms.saturating_add(v.wait_ms().unwrap_or(u64::MAX - now_ms));
        let start = match prev {
            None => alone,
            Some(p) => alone.max(p.saturating_add(work)),
        };
        (start, v)
    }

    /// Expected start times of every queued request, in order.
    fn schedule(&self, now_ms: u64) -> Vec<u64> {
        let mut starts: Vec<u64> = Vec::with_capacity(self.entries.len());
        for e in &self.entries {
            let (s, _) = self.start_of(&e.cost, starts.last().copied(), now_ms);
            starts.push(s);
        }
        starts
    }

    /// Offers a request that must start by `deadline_ms`. Admitted at once when nothing waits and it fits now;
    /// queued when it can start within the bound and its deadline; otherwise shed with the reason.
    pub fn offer(&mut self, item: T, cost: Cost, deadline_ms: u64, now_ms: u64) -> Offer<T> {
        if self.entries.is_empty() {
            match self.ledger.try_reserve(&cost, self.policy, now_ms) {
                Ok(reservation) => return Offer::Admitted { item, reservation },
                Err(Refused::Never {
                    dimension,
                    limit,
                    needed,
                    excess,
                }) => return never(item, dimension, limit, needed, excess, now_ms),
                Err(Refused::NotYet { .. }) => {}
            }
        }
        let last = self.schedule(now_ms).last().copied();
        let (start, verdict) = self.start_of(&cost, last, now_ms);
        if let Verdict::NeverSendable {
            dimension,
            limit,
            needed,
            excess,
        } = verdict
        {
            return never(item, dimension, limit, needed, excess, now_ms);
        }
        let work = start.saturating_sub(now_ms);
        if work > self.max_work_ms {
            let reason = ShedReason::QueueFull {
                work_ms: work,
                max_work_ms: self.max_work_ms,
            };
            return Offer::Shed {
                item,
                shed: Shed::new(reason, now_ms),
            };
        }
        if start > deadline_ms {
            let reason = ShedReason::DeadlineUnreachable {
                earliest_start_ms: start,
                deadline_ms,
            };
            return Offer::Shed {
                item,
                shed: Shed::new(reason, now_ms),
            };
        }
        let position = self.entries.len();
        self.entries.push_back(Entry {
            item,
            cost,
            deadline_ms,
        });
        Offer::Queued {
            eta_ms: start,
            position,
        }
    }

    /// What is due at `now_ms`: requests to send now (in order, each reserved), requests shed because they can no
    /// longer start by their deadline, and when to wake next.
    pub fn poll(&mut self, now_ms: u64) -> Poll<T> {
        let mut admitted = Vec::new();
        let mut shed = Vec::new();
        while let Some(head) = self.entries.front() {
            match self.ledger.try_reserve(&head.cost, self.policy, now_ms) {
                Ok(r) => {
                    if let Some(e) = self.entries.pop_front() {
                        admitted.push((e.item, r));
                    }
                }
                Err(Refused::Never {
                    dimension,
                    limit,
                    needed,
                    excess,
                }) => {
                    if let Some(e) = self.entries.pop_front() {
                        let reason = ShedReason::NeverSendable {
                            dimension,
                            limit,
                            needed,
                            excess,
                        };
                        shed.push((e.item, Shed::new(reason, now_ms)));
                    }
                }
                Err(Refused::NotYet { wait_ms, .. }) => {
                    let start = now_ms.saturating_add(wait_ms);
                    if start > head.deadline_ms {
                        if let Some(e) = self.entries.pop_front() {
                            let reason = ShedReason::DeadlineUnreachable {
                                earliest_start_ms: start,
                                deadline_ms: e.deadline_ms,
                            };
                            shed.push((e.item, Shed::new(reason, now_ms)));
                        }
                    } else {
                        break;
                    }
                }
            }
        }
        // Shed at once whatever can no longer start by its deadline behind the head.
        let starts = self.schedule(now_ms);
        let mut keep = VecDeque::with_capacity(self.entries.len());
        for (e, start) in self.entries.drain(..).zip(starts) {
            if start > e.deadline_ms {
                let reason = ShedReason::DeadlineUnreachable {
                    earliest_start_ms: start,
                    deadline_ms: e.deadline_ms,
                };
                shed.push((e.item, Shed::new(reason, now_ms)));
            } else {
                keep.push_back(e);
            }
        }
        self.entries = keep;
        let wake_at_ms = self.entries.front().map(|head| {
            let (_, v) = self
                .ledger
                .work_and_verdict(&head.cost, self.policy, now_ms);
            now_ms.saturating_add(v.wait_ms().unwrap_or(0).max(1))
        });
        Poll {
            admitted,
            shed,
            wake_at_ms,
        }
    }
}

/// The answer to an offer that can never be sent.
fn never<T>(
    item: T,
    dimension: Dimension,
    limit: u64,
    needed: u64,
    excess: u64,
    now_ms: u64,
) -> Offer<T> {
    let reason = ShedReason::NeverSendable {
        dimension,
        limit,
        needed,
        excess,
    };
    Offer::Shed {
        item,
        shed: Shed::new(reason, now_ms),
    }
}
