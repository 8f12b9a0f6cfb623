//! Silence alerts (`s` on Alerts): what (the selected alert's rule on its service, its
//! rule, or its service; with no alert selected, any rule; `Ctrl-T` cycles), for how long (`1h`, `8h`, `24h` with ↑/↓, or
//! typed: `90m`, `2h30m`, `2d`), and why. On an alert a silence already covers, the form
//! edits that silence (its length counts from now).
//!
//! Nothing is sent to the account: Enter hands the silence to the account engine
//! ([`Command::Mark`]), which applies it from its next sweep and writes it to the
//! profile's history file, so `watch` holds it too. A length or reason that does not
//! read is an inline error and the form keeps what was typed. A read-only profile has
//! it (it changes nothing on the account).

use super::TextField;
use super::{
    Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormRow, FormState, FormView, Next,
};
use crate::alerts::marks::{self, MarkChange, PRESETS, Silence, Target};
use crate::alerts::{Alert, Rule, Subject};
use crate::app::Command;
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, NEXT_FIELD, PREV_FIELD, step_key};
use crate::app::keymap::{Action, FormKey, code, ctrl};
use crate::app::look::theme::Theme;
use crate::app::status::NoticeKind;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "silence",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("silence"), "Silence for the length typed, with the reason"),
        step_key(&[ctrl('t')], NEXT_TARGET, Some("what"), "Silence the rule on this service, the rule, or the service"),
        step_key(&[code(KeyCode::Up), code(KeyCode::Down)], Action::Down, Some("1h/8h/24h"), "The next of 1h, 8h and 24h in the length"),
        NEXT_FIELD,
        PREV_FIELD,
        CANCEL,
    ],
};

/// `Ctrl-T`: the next target.
pub const NEXT_TARGET: Action = Action::FormKey(FormKey::NextTarget);

/// The most characters of a reason.
pub const MAX_REASON: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SilenceField {
    Length,
    Reason,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SilenceForm {
    /// What it may cover, the first the default; `target` is the place in it.
    pub targets: Vec<Target>,
    pub target: usize,
    pub length: TextField,
    pub reason: TextField,
    pub focus: SilenceField,
    /// The silence edited, if it is one.
    pub editing: Option<String>,
    pub core: FormCore,
}

impl SilenceForm {
    /// For `alert`: the rule on its service first (or its rule, for the account's and
    /// invoices' alerts); with no alert selected, any one rule.
    pub fn new(alert: Option<&Alert>) -> Self {
        let targets = match alert.map(|a| (Some(a.key.rule), a.key.subject)) {
            Some((rule, Subject::Service(id))) => vec![
                Target {
                    rule,
                    service: Some(id),
                },
                Target {
                    rule,
                    service: None,
                },
                Target {
                    rule: None,
                    service: Some(id),
                },
            ],
            Some((rule, _)) => vec![Target {
                rule,
                service: None,
            }],
            None => Rule::ALL
                .iter()
                .map(|r| Target {
                    rule: Some(*r),
                    service: None,
                })
                .collect(),
        };
        Self {
            targets,
            target: 0,
            length: TextField::prefilled(PRESETS[0]).with_max(16),
            reason: TextField::default().with_max(MAX_REASON),
            focus: SilenceField::Length,
            editing: None,
            core: FormCore::new(FormState::Editing),
        }
    }

    /// Editing `s`: its target, what is left of it and its reason.
    pub fn edit(alert: &Alert, s: &Silence, now: chrono::DateTime<chrono::Utc>) -> Self {
        let mut form = Self::new(Some(alert));
        match form.targets.iter().position(|t| *t == s.target) {
            Some(i) => form.target = i,
            None => {
                form.targets.insert(0, s.target);
            }
        }
        form.length
            .set_prefilled(marks::format_duration(s.until - now));
        form.reason.set_prefilled(s.reason.clone());
        form.editing = Some(s.id.clone());
        form
    }

    pub fn chosen(&self) -> Target {
        self.targets[self.target.min(self.targets.len() - 1)]
    }

    /// ↑/↓: the preset after the one typed (the first when none is).
    pub fn next_preset(&mut self) {
        let now = self.length.value().trim().to_owned();
        let next = PRESETS
            .iter()
            .position(|p| *p == now)
            .map_or(0, |i| (i + 1) % PRESETS.len());
        self.length.set_prefilled(PRESETS[next]);
        self.core.error = None;
    }

    /// Enter: the silence, or an inline error (and the field at fault) and nothing.
    pub fn silence(&mut self, now: chrono::DateTime<chrono::Utc>) -> Option<Silence> {
        let length = match marks::parse_duration(self.length.value()) {
            Ok(d) => d,
            Err(why) => {
                self.core.error = Some(why);
                self.focus = SilenceField::Length;
                return None;
            }
        };
        let reason = crate::text::sanitize(self.reason.value().trim()).into_owned();
        if reason.is_empty() {
            self.core.error = Some("Say why (for whoever sees it silenced).".into());
            self.focus = SilenceField::Reason;
            return None;
        }
        self.core.error = None;
        Some(Silence {
            id: self.editing.clone().unwrap_or_else(marks::new_id),
            target: self.chosen(),
            until: now + length,
            reason,
            by: marks::who(),
            created: now,
        })
    }

    /// What it covers, the length and the reason, the inline error under them, and how
    /// to choose.
    fn view(&self) -> FormView<'_> {
        let title = if self.editing.is_some() {
            "Edit silence"
        } else {
            "Silence alerts"
        };
        let field = |label, field, which| FormRow::Field {
            label,
            field,
            focused: self.focus == which,
            typing: true,
        };
        let tip = "Ctrl-T: what · ↑/↓: 1h, 8h, 24h, or type 90m, 2h30m, 2d";
        FormView::new(title, (64, 9))
            .row(FormRow::Value {
                label: " What",
                text: self.chosen().describe(),
                tone: Tone::Title,
            })
            .row(FormRow::Blank)
            .row(field("For", &self.length, SilenceField::Length))
            .row(field("Reason", &self.reason, SilenceField::Reason))
            .row(FormRow::Error(self.core.error.as_deref()))
            .row(FormRow::Blank)
            .row(FormRow::text(tip, Tone::Dim))
    }
}

impl FormLogic for SilenceForm {
    fn step(&self) -> &'static FormStep {
        &STEP
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        Some(match self.focus {
            SilenceField::Length => &mut self.length,
            SilenceField::Reason => &mut self.reason,
        })
    }

    fn is_typing(&self) -> bool {
        true
    }

    fn action(&mut self, cx: &mut FormCx<'_>, action: Action) -> Next {
        match action {
            Action::Submit => {
                let Some(s) = self.silence(cx.now()) else {
                    return Next::Stay;
                };
                let line = format!(
                    "Silenced {} until {} ({})",
                    s.target.describe(),
                    s.until.with_timezone(&cx.offset()).format("%Y-%m-%d %H:%M"),
                    s.reason
                );
                cx.status().notify(NoticeKind::Done, line);
                cx.send(Command::Mark(MarkChange::Silence(s)));
                Next::Close
            }
            NEXT_TARGET => {
                self.target = (self.target + 1) % self.targets.len();
                Next::Stay
            }
            Action::Down | Action::Up => {
                self.next_preset();
                Next::Stay
            }
            Action::NextField | Action::PrevField => {
                self.focus = match self.focus {
                    SilenceField::Length => SilenceField::Reason,
                    SilenceField::Reason => SilenceField::Length,
                };
                Next::Stay
            }
            _ => Next::Stay,
        }
    }

    /// It sends nothing to the account, so no answer is its.
    fn answered(&mut self, _cx: &mut FormCx<'_>, _answer: Answered<'_>) -> Flow {
        Flow::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        self.view().draw(frame, area, data, theme);
    }
}
