//! Enter on a client (the Clients tab): the client's card. Their ID and e-mail, and what
//! this session did for them: the orders placed (the new service, its invoice and
//! amount), on their way, or whose outcome is in doubt ([`crate::app::orders`]; the
//! server's services name no client, so this is the only place that says which service
//! was ordered for whom). `y` copies the e-mail.

use super::{PopupPane, Reply};
use crate::app::keymap::steps::step_key;
use crate::app::keymap::{Action, Binding, k};
use crate::app::{Command, Cx};

/// The client of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientCard(pub u64);

impl PopupPane for ClientCard {
    const TITLE: &'static str = "client";
    const KEYS: &'static [Binding] = &[step_key(
        &[k('y')],
        Action::Copy,
        Some("copy e-mail"),
        "Copy the client's e-mail address",
    )];

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        if action != Action::Copy {
            return Reply::Ignored;
        }
        let id = self.0;
        let email = cx
            .account
            .store
            .clients_answer()
            .value()
            .and_then(|list| list.iter().find(|c| c.id == id))
            .map(|c| c.email.trim().to_owned())
            .filter(|e| !e.is_empty());
        match email {
            Some(text) => cx.out.push(Command::Copy {
                what: format!("E-mail of client {id}"),
                text,
            }),
            None => cx.shell.notify(format!(
                "Client {id} has no e-mail listed: nothing was copied"
            )),
        }
        Reply::Taken
    }
}
