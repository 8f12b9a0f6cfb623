//! The keys that open the forms: what each key is on (the service, the product or the
//! alert of the tab or popup on screen), read here, on the app's side, so that a form
//! names no tab and no popup; then the form's own `open`, through its context, gives the
//! form to push (or says in the status line why not).

use super::by_number::{ByNumberForm, Lookup};
use super::cx::{ProductOn, ServiceOn};
use super::form::Form;
use super::iplist::IpListForm;
use super::routing::acting;
use super::silence::SilenceForm;
use super::{bind_ip, iplist, order, password, refresh};
use crate::app::form_kind::FormKind;
use crate::app::{Cx, Popup};

/// The key of a form: that form opens (or the status line says why not).
pub(in crate::app) fn open(cx: &mut Cx<'_>, kind: FormKind) {
    let form = match kind {
        FormKind::Order => {
            let on = product_on(cx);
            acting(cx, |cx| order::open(cx, on)).map(Form::Order)
        }
        FormKind::BindIp => {
            let on = service_on(cx);
            acting(cx, |cx| bind_ip::open(cx, on.as_ref())).map(Form::BindIp)
        }
        FormKind::Password => {
            let on = service_on(cx);
            acting(cx, |cx| password::open(cx, on.as_ref())).map(Form::Password)
        }
        FormKind::Refresh => {
            let on = service_on(cx);
            acting(cx, |cx| refresh::open(cx, on.as_ref())).map(Form::Refresh)
        }
        FormKind::IpList => iplist_form(cx).map(Form::IpList),
        FormKind::InvoiceNumber => Some(Form::ByNumber(ByNumberForm::new(Lookup::Invoice))),
        FormKind::ServiceNumber => Some(Form::ByNumber(ByNumberForm::new(Lookup::Service))),
        FormKind::Silence => Some(Form::Silence(silence_form(cx))),
    };
    if let Some(form) = form {
        // Marks are for the keys that act on every marked row (`Space` says which): a
        // form is for one row, and says so rather than leave the marks seeming used.
        let marked = cx.tabs.pane(cx.shell.tab).table().marked_count();
        if marked > 0 && cx.shell.popups.is_empty() {
            cx.shell.notify(format!(
                "The form is for the highlighted row only; the {marked} marked rows are kept"
            ));
        }
        cx.shell.popups.push(Popup::from(form));
    }
}

/// The palette's "copy IP list": `i`'s form, which copies the list as `y` would once it
/// is fetched.
pub(in crate::app) fn open_iplist_to_copy(cx: &mut Cx<'_>) {
    if let Some(mut form) = iplist_form(cx) {
        form.copy_when_fetched = true;
        cx.shell.popups.push(Popup::from(Form::IpList(form)));
    }
}

/// An IP list form opened by something else than `i` (`y` on Services, one of your
/// actions): the target service's list is fetched at once, as the person asked, and `then`
/// says what becomes of it; the form shows meanwhile, so the wait and a failure are seen.
pub(in crate::app) fn fetch_iplist(
    cx: &mut Cx<'_>,
    on: &ServiceOn,
    then: impl FnOnce(&mut IpListForm),
) {
    let mut form = iplist::chooser(on);
    then(&mut form);
    acting(cx, |cx| form.fetch(cx));
    cx.shell.popups.push(Popup::from(Form::IpList(form)));
}

fn iplist_form(cx: &Cx<'_>) -> Option<IpListForm> {
    service_on(cx).map(|on| iplist::chooser(&on))
}

/// The service an action on the Services tab is for (the open service popup's, else the
/// selected row's), with its status in the list and its type.
pub(in crate::app) fn service_on(cx: &Cx<'_>) -> Option<ServiceOn> {
    let id = cx.target_service()?;
    Some(ServiceOn {
        id,
        status: cx.services().get(id).map(|s| s.status.clone()),
        kind: cx.tabs.service_type(id, cx.account),
    })
}

/// The product `o` orders: the open product popup's, else the selected row's.
fn product_on(cx: &Cx<'_>) -> Option<ProductOn> {
    let id = match cx.shell.popups.last() {
        Some(Popup::Product(viewer)) => Some(viewer.0),
        _ => cx.tabs.products.table.selected_id(),
    }?;
    let listed = cx.products().rows().iter().find(|p| p.product_id == id);
    Some(ProductOn {
        id,
        listed: listed.cloned(),
    })
}

/// `s` on Alerts: the form for the selected alert (editing the silence that covers it,
/// if one does), or for a rule when none is selected.
fn silence_form(cx: &Cx<'_>) -> SilenceForm {
    let now = cx.now();
    let alerts = &cx.tabs.alerts;
    match alerts.selected() {
        Some(a) => match alerts.marks.silence(&a.key, now) {
            Some(s) => SilenceForm::edit(a, s, now),
            None => SilenceForm::new(Some(a)),
        },
        None => SilenceForm::new(None),
    }
}
