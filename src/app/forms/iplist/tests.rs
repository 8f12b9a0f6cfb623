//! The IP-list chooser's and view's own logic.

use super::*;

fn list(raw: &str) -> IpList {
    IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw.to_owned())
}

#[test]
fn the_chooser_defaults_by_product_type_and_cycles() {
    let mut f = IpListForm::new(1003, &ProductType::Ppr);
    assert_eq!(f.list_type, IpListType::PprHttp);
    assert_eq!(
        IpListForm::new(1001, &ProductType::Fpr).list_type,
        IpListType::HttpAuth
    );
    f.cycle(1);
    assert_eq!(f.list_type, IpListType::PprSocks);
    f.cycle(1);
    // Only the rotating gateway's types for a ppr service (issue 45).
    assert_eq!(f.list_type, IpListType::PprHttp, "wraps around");
    let mut fpr = IpListForm::new(1001, &ProductType::Fpr);
    let mut seen = vec![fpr.list_type.clone()];
    for _ in 0..3 {
        fpr.cycle(1);
        seen.push(fpr.list_type.clone());
    }
    assert_eq!(
        seen,
        [
            IpListType::HttpAuth,
            IpListType::HttpIp,
            IpListType::SocksIp,
            IpListType::HttpAuth
        ]
    );

    f.switch_column();
    f.cycle(-1);
    assert_eq!(f.format, IpListFormat::Csv);
    assert_eq!(f.default_path(), "iplist-1003-ppr-http.csv");
    assert!(f.request().is_some(), "Enter fetches");
    f.core.state = FormState::Submitting;
    assert_eq!(f.request(), None, "not twice");
    f.finish(Ok(Response::IpList(list("1.2.3.4:80\n"))));
    assert!(std::ptr::eq(f.step(), &VIEW));
    assert_eq!(f.list().map(entries_label).as_deref(), Some("1 entry"));
}
