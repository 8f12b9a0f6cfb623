//! The driver's state files, off the engine's task: the acknowledgements and silences and
//! the alerts other processes on the account have open, read before each sweep; the open
//! alerts and the learned types, written after they change.

use super::{Driver, Event, Swept};
use crate::alerts::Change;
use crate::alerts::marks::MarkChange;
use crate::api::ProductType;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

impl Driver {
    /// Before a sweep: the marks another process may have written (one row read when
    /// they did not change; off the task, on the marks file's thread).
    pub(super) async fn read_marks(&mut self) {
        let Some(file) = self.setup.marks_file.clone() else {
            return;
        };
        if let Some(marks) = file.changed().await
            && self.engine.set_marks(marks)
        {
            let _ = self.events.send(Event::Marked(self.engine.marks().clone()));
        }
    }

    /// Before a sweep: the alerts other processes on the account have open (the shared
    /// alert file, read off the task), taken into the book.
    pub(super) async fn read_alerts(&mut self) {
        let Some((file, account)) = self.setup.alert_file.clone() else {
            return;
        };
        let read = tokio::task::spawn_blocking(move || file.load(&account).0).await;
        if let Ok(open) = read
            && !open.is_empty()
        {
            self.engine.adopt_alerts(open);
        }
    }

    pub(super) fn swept(&mut self, swept: Swept, now: DateTime<Utc>) {
        if let Some(file) = &self.setup.marks_file {
            for key in &swept.unacked {
                file.apply(MarkChange::Unack(*key));
            }
        }
        if swept
            .transitions
            .iter()
            .any(|t| t.change != Change::Repeated)
            && let Some((file, account)) = self.setup.alert_file.clone()
        {
            let open: Vec<_> = swept.book.open().cloned().collect();
            let resolved: Vec<_> = swept
                .transitions
                .iter()
                .filter(|t| t.change == Change::Resolved)
                .map(|t| t.alert.key)
                .collect();
            // Off the task: losing the file only means the alerts are announced again
            // after a restart.
            tokio::task::spawn_blocking(move || {
                if let Err(e) = file.save(&account, &open, &resolved) {
                    tracing::warn!("cannot save {}: {e}", file.path().display());
                }
            });
        }
        self.publish(now);
        let _ = self.events.send(Event::Swept(swept));
    }

    /// A list read (services, products, invoices, clients) kept for the shell's
    /// completion, off the task.
    pub(super) fn keep_seen(&self, loaded: &crate::api::Loaded) {
        if let Some(profile) = self.setup.seen.clone()
            && let Some((kind, entries)) = crate::seen::of(loaded)
        {
            tokio::task::spawn_blocking(move || crate::seen::keep(&profile, kind, entries));
        }
    }

    pub(super) fn save_types(&self, types: &HashMap<u64, ProductType>) {
        if let Some((file, account)) = self.setup.types_file.clone() {
            let types = types.clone();
            tokio::task::spawn_blocking(move || {
                if let Err(e) = file.save(&account, &types) {
                    tracing::warn!("cannot save {}: {e}", file.path().display());
                }
            });
        }
    }
}
