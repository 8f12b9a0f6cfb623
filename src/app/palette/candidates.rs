//! What the palette searches (one [`Candidate`] per service, proxy IP of a loaded list,
//! product, invoice, tab, profile and action), gathered from what the app holds when the
//! palette opens, and the actions' command lines.

use super::Act;
use crate::api::{IpListType, ProductType};
use crate::app::cmdline::{Arg, line};
use crate::app::{App, Mirror, Shell, Tab, Tabs};
use crate::text;

/// What a candidate is, in the order equal scores are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A `:` verb the query names (`svc 1003`): listed first, above the matches.
    Verb,
    Action,
    Tab,
    Service,
    Product,
    Invoice,
    Profile,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Verb => "verb",
            Kind::Action => "action",
            Kind::Tab => "tab",
            Kind::Service => "service",
            Kind::Product => "product",
            Kind::Invoice => "invoice",
            Kind::Profile => "profile",
        }
    }

    /// Shown before anything is typed (the account's own rows only once searched for).
    pub fn listed_at_first(self) -> bool {
        matches!(self, Kind::Action | Kind::Tab | Kind::Profile)
    }
}

/// Where Enter goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Service(u64),
    Product(u64),
    Invoice(u64),
    Tab(Tab),
    Profile(String),
    Action(Act),
    /// `:theme NAME`: the look, for this run.
    Theme(crate::config::Look),
    /// A verb that cannot run as typed: Enter says why and keeps the query.
    Say(String),
    /// One of your actions (`config::actions`), by its place in the settings.
    UserAction(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub kind: Kind,
    pub target: Target,
    /// What is searched and shown: `1001  Static US 25  203.0.113.5`.
    pub text: String,
    /// Shown dim beside it: the key of an action, a service's status, where a proxy is.
    pub note: String,
    /// An action's equivalent command line.
    pub command: Option<String>,
}

impl Candidate {
    fn new(kind: Kind, target: Target, text: String, note: String) -> Self {
        Self {
            kind,
            target,
            text,
            note,
            command: None,
        }
    }
}

/// Everything the palette can find, the actions for `service` and `product` first.
pub fn gather(app: &App, service: Option<u64>, product: Option<u64>) -> Vec<Candidate> {
    let held = Held {
        shell: &app.shell,
        tabs: &app.tabs,
        account: &app.account,
    };
    let mut out = actions(&held, service, product);
    // Your actions of the tab shown, with the command they run.
    for (i, a) in crate::app::user_actions::of_tab(&app.settings().actions, app.shell.tab) {
        let mut c = Candidate::new(
            Kind::Action,
            Target::UserAction(i),
            text::sanitize(&a.description).into_owned(),
            a.key.to_string(),
        );
        c.command =
            Some(text::sanitize(&crate::app::user_actions::shown_command(&a.command)).into_owned());
        out.push(c);
    }
    for tab in Tab::ALL {
        out.push(Candidate::new(
            Kind::Tab,
            Target::Tab(tab),
            tab.title().to_owned(),
            format!("key {}", tab.number()),
        ));
    }
    for name in &app.settings().profiles.names {
        let current = *name == app.settings().profile;
        let note = if current { "current" } else { "switch (P)" };
        out.push(Candidate::new(
            Kind::Profile,
            Target::Profile(name.clone()),
            text::sanitize(name).into_owned(),
            note.into(),
        ));
    }
    services(app, &mut out);
    for p in app.products().rows() {
        out.push(Candidate::new(
            Kind::Product,
            Target::Product(p.product_id),
            format!("{}  {}", p.product_id, text::sanitize(&p.product_name)),
            text::money(p.price),
        ));
    }
    for i in app.billing().rows() {
        out.push(Candidate::new(
            Kind::Invoice,
            Target::Invoice(i.id),
            format!("{}  {}", i.id, text::sanitize(&i.description)),
            format!("{} {}", i.status.as_str(), text::money(i.amount)),
        ));
    }
    out
}

/// Each listed service (with its bound IP when its detail is loaded), and each proxy IP of
/// the lists loaded this session.
fn services(app: &App, out: &mut Vec<Candidate>) {
    let tab = app.services();
    for s in tab.rows() {
        let mut shown = format!("{}  {}", s.service_id, text::sanitize(&s.product_name));
        if let Some(ip) = tab
            .detail(s.service_id)
            .value()
            .and_then(|d| d.bound_ip.as_deref())
            .map(str::trim)
            .filter(|ip| !ip.is_empty())
        {
            shown.push_str("  ");
            shown.push_str(&text::sanitize(ip));
        }
        out.push(Candidate::new(
            Kind::Service,
            Target::Service(s.service_id),
            shown,
            s.status.as_str().to_owned(),
        ));
    }
    for (id, host) in app.palette_proxies().iter() {
        let name = tab.get(*id).map_or("", |s| s.product_name.as_str());
        out.push(Candidate::new(
            Kind::Service,
            Target::Service(*id),
            text::sanitize(host).into_owned(),
            format!("proxy of {id} {}", text::sanitize(name)),
        ));
    }
}

/// What the actions are worded from: the app's parts a popup reads through its context.
pub struct Held<'a> {
    pub shell: &'a Shell,
    pub tabs: &'a Tabs,
    pub account: &'a Mirror,
}

/// The actions: on `service`, on `product`, and those of the whole screen.
pub fn actions(app: &Held<'_>, service: Option<u64>, product: Option<u64>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let account = &app.shell.settings.cli_args;
    let cmd = |args: &[Arg]| Some(line(account, args));
    if let Some(id) = service {
        let v = || Arg::v(id);
        let on = |act, name, key, command| on_row(app, act, name, key, command);
        out.push(on(
            Act::Bind(id),
            "bind IP",
            "b",
            cmd(&[Arg::v("bind"), v(), Arg::Hole("IP")]),
        ));
        out.push(on(
            Act::Password(id),
            "change password",
            "p",
            cmd(&[Arg::v("password"), v()]),
        ));
        let refresh = cmd(&[Arg::v("refresh-list"), v()]);
        out.push(on(Act::RefreshList(id), "refresh IP list", "u", refresh));
        let mut iplist = vec![Arg::v("iplist"), v()];
        if let Some(t) = app.tabs.service_type(id, app.account) {
            iplist.extend([
                Arg::v("--type"),
                Arg::v(IpListType::default_for(&t).as_str()),
            ]);
        }
        iplist.extend([Arg::v("--format"), Arg::v("txt")]);
        out.push(on(Act::CopyIpList(id), "copy IP list", "i", cmd(&iplist)));
        out.push(on(
            Act::Probe(id),
            "probe proxies",
            "h",
            cmd(&[Arg::v("probe"), v()]),
        ));
        let detail = cmd(&[Arg::v("service"), v()]);
        out.push(on(
            Act::ServiceDetail(id),
            "service detail",
            "Enter",
            detail,
        ));
    }
    if let Some(id) = product {
        let mut order = vec![
            Arg::v("order"),
            Arg::v(id),
            Arg::v("--client"),
            Arg::Hole("CLIENT_ID"),
        ];
        let detail = app.account.store.product(id);
        if detail.is_some_and(|p| p.product_type == ProductType::Fpr) {
            order.push(Arg::Optional("--ip", "IP"));
        }
        out.push(on_row(app, Act::Order(id), "order", "o", cmd(&order)));
        let detail = cmd(&[Arg::v("product"), Arg::v(id)]);
        out.push(on_row(
            app,
            Act::ProductDetail(id),
            "product detail",
            "Enter",
            detail,
        ));
    }
    out.extend(screen_actions(app));
    out
}

/// The actions of the whole screen (refresh, the logs, help, the accounts).
fn screen_actions(app: &Held<'_>) -> Vec<Candidate> {
    let account = &app.shell.settings.cli_args;
    let mut out = Vec::new();
    // Over All, `r` and `R` refresh every account: no one account's command line.
    let all = app.shell.accounts == crate::app::keymap::Accounts::All;
    let refresh = refresh_command(app)
        .filter(|_| !all)
        .map(|args| line(account, &args));
    let (this_tab, everything) = if all {
        (
            "refresh this tab of every account",
            "refresh everything of every account",
        )
    } else {
        ("refresh this tab", "refresh everything")
    };
    let switch = if app.shell.accounts == crate::app::keymap::Accounts::Alone {
        "switch profile"
    } else {
        "show one account or All"
    };
    for (act, name, key, command) in [
        (Act::Refresh, this_tab, "r", refresh),
        (Act::RefreshAll, everything, "R", None),
        (Act::CommandLog, "command log", "L", None),
        (Act::Messages, "messages", "m", None),
        (Act::SwitchProfile, switch, "P", None),
        (Act::Help, "help", "?", None),
    ] {
        out.push(on_row(app, act, name, key, command));
    }
    out
}

/// An action, named with the service or product it acts on: `bind IP · service 1001
/// Datacenter US 10`.
fn on_row(app: &Held<'_>, act: Act, name: &str, key: &str, command: Option<String>) -> Candidate {
    let row = match (act.service(), act.product()) {
        (Some(id), _) => {
            let product = app
                .tabs
                .services
                .view(&app.account.store)
                .get(id)
                .map(|s| s.product_name.as_str());
            format!(
                " · service {id} {}",
                text::sanitize(product.unwrap_or_default())
            )
        }
        (None, Some(id)) => {
            let rows = app.tabs.products.view(&app.account.store).rows();
            let product = rows.iter().find(|p| p.product_id == id);
            let name = product.map(|p| p.product_name.as_str()).unwrap_or_default();
            format!(" · product {id} {}", text::sanitize(name))
        }
        (None, None) => String::new(),
    };
    // Listed all the same: Enter says why nothing opens, as the key does.
    let writes = matches!(
        act,
        Act::Bind(_) | Act::Password(_) | Act::RefreshList(_) | Act::Order(_)
    );
    let note = if writes && app.shell.settings.read_only {
        format!("{key} · off: read-only")
    } else {
        key.to_owned()
    };
    Candidate {
        kind: Kind::Action,
        target: Target::Action(act),
        text: format!("{name}{}", row.trim_end()),
        note,
        command,
    }
}

/// What `r` reads on the tab under the palette, as one command (the tab says which:
/// Network and Usage read every service's lists, which no one command does).
fn refresh_command(app: &Held<'_>) -> Option<Vec<Arg>> {
    Some(vec![Arg::v(app.shell.tab.command(app.tabs)?)])
}
