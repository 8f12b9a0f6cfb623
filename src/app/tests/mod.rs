//! Scenario tests: messages in, state and commands out. No terminal, no network; a fake
//! clock.

mod alerts;
mod by_number;
mod clients;
mod countdown;
mod errors;
mod fetching;
mod form_ids;
mod form_keys;
mod forms;
mod history;
mod iplist;
mod keys;
mod orders;
mod palette;
mod profiles;
mod readme_keys;
mod redraw;
mod user_actions;

/// The form on top of the popup stack, when it is the one a test opened: a plain match on
/// the form's variant (the app itself asks a form only through its trait).
mod top {
    use crate::app::forms::Form;
    use crate::app::forms::bind_ip::BindIpForm;
    use crate::app::forms::by_number::ByNumberForm;
    use crate::app::forms::iplist::IpListForm;
    use crate::app::forms::order::OrderForm;
    use crate::app::forms::password::PasswordForm;
    use crate::app::forms::refresh::RefreshForm;
    use crate::testkit::Harness;

    fn form(h: &Harness) -> Option<&Form> {
        h.top()?.form()
    }

    pub fn bind(h: &Harness) -> Option<&BindIpForm> {
        match form(h)? {
            Form::BindIp(f) => Some(f),
            _ => None,
        }
    }

    pub fn by_number(h: &Harness) -> Option<&ByNumberForm> {
        match form(h)? {
            Form::ByNumber(f) => Some(f),
            _ => None,
        }
    }

    pub fn iplist(h: &Harness) -> Option<&IpListForm> {
        match form(h)? {
            Form::IpList(f) => Some(f),
            _ => None,
        }
    }

    pub fn order(h: &Harness) -> Option<&OrderForm> {
        match form(h)? {
            Form::Order(f) => Some(f),
            _ => None,
        }
    }

    pub fn password(h: &Harness) -> Option<&PasswordForm> {
        match form(h)? {
            Form::Password(f) => Some(f),
            _ => None,
        }
    }

    pub fn refresh(h: &Harness) -> Option<&RefreshForm> {
        match form(h)? {
            Form::Refresh(f) => Some(f),
            _ => None,
        }
    }
}
