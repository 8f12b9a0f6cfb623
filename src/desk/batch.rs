//! Gathering a batch of the accounts' outcomes for the loop: at most
//! [`SEATS_PER_BATCH`] accounts a batch (see the module docs of [`super`]).

use super::{Desk, In, SEATS_PER_BATCH};

impl Desk {
    /// The next outcome of any account.
    pub async fn next_msg(&mut self) -> In {
        let waits = self.seats.iter_mut().enumerate().map(|(i, seat)| {
            Box::pin(async move {
                match seat.effects.next_msg().await {
                    Some(msg) => In::Seat(i, msg),
                    // Nothing more can come from it: it waits forever, not in a loop.
                    None => std::future::pending().await,
                }
            })
        });
        let next = futures::future::select_all(waits).await.0;
        if let In::Seat(i, _) = &next {
            self.gather(*i);
        }
        next
    }

    /// An outcome that has already arrived, if any, for the batch being gathered: from
    /// the accounts already in it, else (while it has fewer than [`SEATS_PER_BATCH`]) from
    /// the next account in turn. What a batch costs grows with the accounts it touches
    /// (each works out its rows again), and a key waits for at most one batch.
    pub fn try_next_msg(&mut self) -> Option<In> {
        for k in 0..self.gathering.len() {
            let i = self.gathering[k];
            if let Some(msg) = self.seats[i].effects.try_next_msg() {
                return Some(In::Seat(i, msg));
            }
        }
        if self.gathering.len() >= SEATS_PER_BATCH {
            return None;
        }
        let n = self.seats.len();
        for step in 0..n {
            let i = (self.first + step) % n;
            if self.gathering.contains(&i) {
                continue;
            }
            if let Some(msg) = self.seats[i].effects.try_next_msg() {
                self.gather(i);
                return Some(In::Seat(i, msg));
            }
        }
        None
    }

    fn gather(&mut self, i: usize) {
        if !self.gathering.contains(&i) {
            self.gathering.push(i);
        }
    }
}
