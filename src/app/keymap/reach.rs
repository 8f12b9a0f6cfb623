//! [`Reach`]: who carries an action out over several accounts.

use super::{Action, FormKind};

/// Who carries an action out when the All view shows several accounts: the one list the
/// All view's router reads (one account's app carries every action out itself, and moves
/// its table by the same list: [`Reach::Table`]). A new action is placed here or does not
/// compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The program: quit, suspend, `A`.
    Program,
    /// The table on screen: its tab, its selection, its filter and `!`.
    Table,
    /// Esc: the filter, else the status lines.
    Back,
    /// Every account: `r`, `R`, a sort.
    EveryAccount,
    /// A popup over every account: `m`, `L`, `?`, `P`, and `o` (which first asks which
    /// account orders).
    Screen,
    /// The highlighted row's account, on that row.
    Row,
}

impl Action {
    /// See [`Reach`].
    pub fn reach(self) -> Reach {
        match self {
            Action::Quit | Action::ForceQuit | Action::Suspend | Action::AllAccounts => {
                Reach::Program
            }
            Action::GoTab
            | Action::NextTab
            | Action::PrevTab
            | Action::Up
            | Action::Down
            | Action::Top
            | Action::Bottom
            | Action::PageUp
            | Action::PageDown
            | Action::Filter
            | Action::FilterAccept
            | Action::FilterBackspace
            | Action::ProblemsOnly
            | Action::Mark => Reach::Table,
            Action::Back => Reach::Back,
            Action::Refresh | Action::RefreshAll | Action::CycleSort | Action::ReverseSort => {
                Reach::EveryAccount
            }
            Action::Messages
            | Action::CommandLog
            | Action::Help
            | Action::SwitchProfile
            | Action::OpenForm(FormKind::Order) => Reach::Screen,
            Action::Open
            | Action::TogglePassword
            | Action::CycleDetail
            | Action::OpenForm(_)
            | Action::ClearCountdown
            | Action::Probe
            | Action::RecheckFailed
            | Action::ProbeAgain
            | Action::ProbeBoth
            | Action::RotationAudit
            | Action::CycleTemplate
            | Action::Copy
            | Action::CopyProxy
            | Action::CopyUrls
            | Action::WriteFile
            | Action::Submit
            | Action::NextField
            | Action::PrevField
            | Action::FormKey(_)
            | Action::Acknowledge
            | Action::Unsilence
            | Action::CycleRange
            | Action::Palette
            | Action::DayBack
            | Action::DayForward => Reach::Row,
        }
    }
}
