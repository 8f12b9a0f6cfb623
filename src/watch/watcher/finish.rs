//! A watcher's stop: what must not be cut short is waited for, each wait bounded.

use super::{FINISH_LIMIT, ON_ALERT_GRACE, Watcher};
use crate::account::Event;
use std::time::Duration;

impl Watcher {
    /// Waits for what must not be cut short: a rebind's answer, the history's writes, the
    /// output. Bounded by [`FINISH_LIMIT`].
    pub(super) async fn finish(&mut self) {
        let limit = tokio::time::Instant::now() + FINISH_LIMIT;
        // A probe round ends at once: it writes nothing that must not be cut short.
        if self.stop_round() {
            self.output.log(format!(
                "{}: the probe round running was stopped",
                self.profile
            ));
        }
        let mut history = self.options.history.take();
        if let Some((writer, answers)) = &mut history {
            // Answers to nothing asked here (a failure said earlier) are not the flush.
            while answers.try_recv().is_ok() {}
            let now = self.now();
            writer.ask(crate::history::Query::Overview { now });
        }
        let writing = |w: &Self| w.keep.as_ref().is_some_and(|k| k.rebinds_in_flight() > 0);
        while writing(self) {
            match tokio::time::timeout_at(limit, self.events.recv()).await {
                Ok(Some(Event::Loaded { loaded, .. })) => self.on_loaded(&loaded),
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        if let Some((_, answers)) = &mut history {
            let _ = tokio::time::timeout_at(limit, answers.recv()).await;
        }
        if let Some((on_alert, keep)) = &self.options.on_alert {
            let left = limit.saturating_duration_since(tokio::time::Instant::now());
            let lost = on_alert.finish(left.min(ON_ALERT_GRACE)).await;
            let count: usize = lost.iter().map(crate::alerts::Notice::count).sum();
            if count > 0 {
                let kept = match keep {
                    Some((file, account)) => match file.keep(account, lost) {
                        Ok(()) => format!("; kept in {} for the next start", file.path().display()),
                        Err(e) => format!("; not kept ({}: {e})", file.path().display()),
                    },
                    None => String::new(),
                };
                self.output.log(format!(
                    "{}: {} not delivered to on_alert: the stop came first (the commands still running were ended){kept}",
                    self.profile,
                    crate::text::counted(count as u64, "alert notice", "alert notices")
                ));
            }
        }
        self.output.log(format!(
            "{}: stopped after {} sweeps",
            self.profile, self.swept.count
        ));
        self.output.flush(Duration::from_secs(2)).await;
    }
}
