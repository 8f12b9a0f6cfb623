use super::*;

fn e(host: &str, port: u16, login: Option<&str>, pw: Option<&str>) -> IpEntry {
    entry(host, Some(port), login, pw)
}

#[test]
fn txt_plain_and_with_credentials() {
    let raw = "1.2.3.4:8080\n\n# comment\n5.6.7.8:3128:bob:s3cr:et\nbad line here\n";
    let (entries, skipped) = parse_entries(&IpListFormat::Txt, raw);
    assert_eq!(
        entries,
        vec![
            e("1.2.3.4", 8080, None, None),
            e("5.6.7.8", 3128, Some("bob"), Some("s3cr:et")),
        ]
    );
    assert_eq!(skipped, 1);
}

#[test]
fn txt_userinfo_form() {
    let (entries, _) = parse_entries(&IpListFormat::Txt, "http://bob:pw@1.2.3.4:80\n");
    assert_eq!(entries, vec![e("1.2.3.4", 80, Some("bob"), Some("pw"))]);
}

#[test]
fn csv_with_header_in_any_order() {
    let raw = "port,ip,password,login\n8080,1.2.3.4,pw,bob\n";
    let (entries, skipped) = parse_entries(&IpListFormat::Csv, raw);
    assert_eq!(entries, vec![e("1.2.3.4", 8080, Some("bob"), Some("pw"))]);
    assert_eq!(skipped, 0);
}

#[test]
fn csv_without_header_and_semicolons() {
    let raw = "1.2.3.4;8080\r\n5.6.7.8;81;u;p\r\n";
    let (entries, _) = parse_entries(&IpListFormat::Csv, raw);
    assert_eq!(
        entries,
        vec![
            e("1.2.3.4", 8080, None, None),
            e("5.6.7.8", 81, Some("u"), Some("p"))
        ]
    );
}

#[test]
fn csv_single_column_of_txt_lines() {
    let (entries, _) = parse_entries(&IpListFormat::Csv, "1.2.3.4:80:u:p\n");
    assert_eq!(entries, vec![e("1.2.3.4", 80, Some("u"), Some("p"))]);
}

#[test]
fn json_array_numbers_as_strings() {
    let raw =
        r#"[{"ip":"1.2.3.4","port":"8080","login":"u","password":"p"},{"ip":"5.6.7.8","port":81}]"#;
    let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
    assert_eq!(
        entries,
        vec![
            e("1.2.3.4", 8080, Some("u"), Some("p")),
            e("5.6.7.8", 81, None, None)
        ]
    );
    assert_eq!(skipped, 0);
}

#[test]
fn json_objects_joined_by_commas_and_newlines() {
    let raw = "{\"ip\":\"1.2.3.4\",\"port\":\"80\"},\n{\"ip\":\"5.6.7.8\",\"port\":\"81\"},\n";
    let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
    assert_eq!(
        entries,
        vec![e("1.2.3.4", 80, None, None), e("5.6.7.8", 81, None, None)]
    );
    assert_eq!(skipped, 0);
}

#[test]
fn json_broken_element_is_skipped_not_fatal() {
    let raw = "{\"ip\":\"1.2.3.4\",\"port\":\"80\"},\n{\"ip\": broken\n{\"ip\":\"5.6.7.8\",\"port\":81}\n";
    let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
    assert_eq!(entries.len(), 2);
    assert_eq!(skipped, 1);
}

#[test]
fn json_array_of_strings() {
    let raw = r#"["1.2.3.4:80", "5.6.7.8:81:u:p"]"#;
    let (entries, _) = parse_entries(&IpListFormat::Json, raw);
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].login.as_deref(), Some("u"));
}

#[test]
fn urls_encode_credentials_and_fall_back_to_host_port() {
    let list = IpList::parse(
        IpListType::HttpAuth,
        IpListFormat::Txt,
        "1.2.3.4:80:bob:p@ss:w\n5.6.7.8:81\n".into(),
    );
    assert_eq!(
        list.to_urls(),
        "http://bob:p%40ss%3Aw@1.2.3.4:80\n5.6.7.8:81\n"
    );
    let socks = IpList::parse(
        IpListType::PprSocks,
        IpListFormat::Txt,
        "h.example:1080:u:p\n".into(),
    );
    assert_eq!(socks.to_urls(), "socks5://u:p@h.example:1080\n");
}
