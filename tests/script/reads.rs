//! The reading subcommands: every one in both output forms, and their 4xx answers.

use super::*;

#[tokio::test]
async fn clients_as_a_table_and_as_json() {
    let sb = sandbox().await;
    let table = run(&sb, &["clients"]).await.ok().stdout;
    assert!(table.lines().next().unwrap().contains("EMAIL"), "{table}");
    assert!(row(&table, "101").contains("alice.nguyen@example.com"));
    assert_eq!(table.lines().count(), 5, "{table}");

    let json = run(&sb, &["clients", "--json"]).await.ok().json();
    let clients = json.as_array().unwrap();
    assert_eq!(clients.len(), 4);
    assert_eq!(clients[0]["id"], 101);
    assert_eq!(clients[0]["email"], "alice.nguyen@example.com");
    // The seed sends client 104's id as a string; the output is the API's shape, a number.
    assert_eq!(clients[3]["id"], 104);
}

#[tokio::test]
async fn products_sorted_by_each_field_of_the_spec() {
    let sb = sandbox().await;
    let table = run(&sb, &["products"]).await.ok().stdout;
    let header = table.lines().next().unwrap();
    for h in ["ID", "NAME", "GROUP", "PRICE", "CREATED"] {
        assert!(header.contains(h), "{header}");
    }
    let line = row(&table, "12");
    assert!(
        line.contains("Datacenter EU 25") && line.contains("$27.50"),
        "{line}"
    );

    let by_price = run(&sb, &["products", "--sort", "price", "--json"])
        .await
        .ok()
        .json();
    let prices: Vec<f64> = by_price
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["price"].as_f64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
    let first = &by_price[0];
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        assert!(first.get(field).is_some(), "{field} missing: {first}");
    }
    for field in [
        "productId",
        "productName",
        "price",
        "groupId",
        "groupName",
        "created_at",
    ] {
        run(&sb, &["products", "--sort", field]).await.ok();
        assert!(
            sb.requests()
                .iter()
                .any(|r| r.path == format!("/api/products/orderby/{field}")),
            "{field}"
        );
    }

    sb.clear_requests();
    run(&sb, &["products", "--sort", "colour"])
        .await
        .fails(2, "colour");
    assert!(sb.requests().is_empty(), "bad usage sends nothing");
}

#[tokio::test]
async fn one_product_and_an_unknown_one() {
    let sb = sandbox().await;
    let table = run(&sb, &["product", "11"]).await.ok().stdout;
    assert!(table.contains("$12.00") && table.contains("fpr"), "{table}");
    assert!(table.contains("Static Datacenter"), "{table}");

    let json = run(&sb, &["product", "21", "--json"]).await.ok().json();
    assert_eq!(json["productId"], 21);
    assert_eq!(json["product_type"], "ppr");
    assert_eq!(json["price"], 25.0);
    assert!(json.get("product_hidden").is_some() && json.get("groupName").is_some());

    run(&sb, &["product", "999"]).await.fails(
        4,
        "product 999: not found (the server answered: Unprocessable Entity or product ID not found)",
    );
}

#[tokio::test]
async fn services_list_and_one_service_with_its_password_masked() {
    let sb = sandbox().await;
    let table = run(&sb, &["services"]).await.ok().stdout;
    let line = row(&table, "1001");
    assert!(
        line.contains("Datacenter US 10") && line.contains("Active"),
        "{line}"
    );
    // Service 1011 is Free: its due date is "0000-00-00" on the wire, missing here.
    assert!(row(&table, "1011").contains('—'), "{table}");
    assert_eq!(table.lines().count(), 14, "{table}");

    let json = run(&sb, &["services", "--json"]).await.ok().json();
    let list = json.as_array().unwrap();
    assert_eq!(list.len(), 13);
    assert_eq!(list[0]["service_id"], 1001);
    assert_eq!(list[0]["status"], "Active");
    assert_eq!(list[0]["orderid"], 501);
    assert!(list[0].get("nextduedate").is_some());

    let table = run(&sb, &["service", "1001"]).await.ok().stdout;
    assert!(
        table.contains("192.0.2.50") && table.contains("pd1001ka"),
        "{table}"
    );
    assert!(!table.contains("Xk4v9QmL2t"), "masked by default: {table}");
    assert!(
        table
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("Password:"),
        "{table}"
    );
    let table = run(&sb, &["service", "1001", "--show-password"])
        .await
        .ok()
        .stdout;
    assert!(table.contains("Xk4v9QmL2t"), "{table}");

    let json = run(&sb, &["service", "1001", "--json"]).await.ok().json();
    assert_eq!(json["service_id"], 1001);
    assert_eq!(json["bindedip"], "192.0.2.50");
    assert_eq!(json["product_type"], "fpr");
    assert_eq!(json["billingcycle"], "Monthly");
    assert!(json["password"].is_null(), "{json}");
    let json = run(&sb, &["service", "1001", "--json", "--show-password"])
        .await
        .ok()
        .json();
    assert_eq!(json["password"], "Xk4v9QmL2t");

    run(&sb, &["service", "99999"]).await.fails(
        4,
        "Read service 99999: not found (the server answered: Unprocessable Entity)",
    );
}

#[tokio::test]
async fn credit_and_invoices() {
    let sb = sandbox().await;
    let table = run(&sb, &["credit"]).await.ok().stdout;
    assert!(table.contains("$250.00"), "{table}");
    let json = run(&sb, &["credit", "--json"]).await.ok().json();
    // The credit as before, and the money ahead beside it (issue 37).
    assert_eq!(json["credit"], 250.0);
    assert!(json["runway"]["due_30_days"].is_number(), "{json:#}");

    let table = run(&sb, &["invoices"]).await.ok().stdout;
    assert_eq!(table.lines().count(), 21, "{table}");
    let line = row(&table, "7004");
    assert!(line.contains("Unpaid") && line.contains("$27.50"), "{line}");
    assert!(line.contains('—'), "no date paid: {line}");
    let json = run(&sb, &["invoices", "--json"]).await.ok().json();
    let list = json.as_array().unwrap();
    assert_eq!(list.len(), 20);
    assert_eq!(list[0]["id"], 7001);
    for field in [
        "description",
        "status",
        "created_at",
        "amount",
        "paymentmethod",
        "serviceid",
    ] {
        assert!(list[0].get(field).is_some(), "{field}: {}", list[0]);
    }

    let table = run(&sb, &["invoice", "7014"]).await.ok().stdout;
    assert!(
        table.contains("Refunded") && table.contains("$180.00"),
        "{table}"
    );
    let json = run(&sb, &["invoice", "7001", "--json"]).await.ok().json();
    // One invoice: the object (the API's array of one is unwrapped).
    assert!(json.is_object(), "{json}");
    assert_eq!(json["id"], 7001);
    assert_eq!(json["amount"], 12.0);
}

#[tokio::test]
async fn stats_and_rate_of_a_ppr_service_and_422_for_fpr() {
    let sb = sandbox().await;
    let table = run(&sb, &["stats", "1003"]).await.ok().stdout;
    assert!(table.starts_with("DATE"), "{table}");
    assert!(table.lines().count() > 20, "{table}");
    let json = run(&sb, &["stats", "1003", "--json"]).await.ok().json();
    let first = &json.as_array().unwrap()[0];
    assert!(
        first["date"].is_string() && first["rate"].is_number(),
        "{first}"
    );

    let table = run(&sb, &["rate", "1003"]).await.ok().stdout;
    assert!(table.contains("5,120") && table.contains('%'), "{table}");
    let json = run(&sb, &["rate", "1003", "--json"]).await.ok().json();
    // One rate: the object, not an array of one.
    assert_eq!(json["limit"], 5120.0);
    assert!(json["rate"].is_number());

    run(&sb, &["stats", "1001"])
        .await
        .fails(1, "service 1001 is static (fpr)");
    let out = run(&sb, &["rate", "1001", "--json"]).await;
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert!(out.stderr.contains("Unprocessable Entity"), "{out:#?}");
    assert_eq!(out.json()["kind"], "failed");
    run(&sb, &["rate", "99999"]).await.fails(4, "not found");
}

#[tokio::test]
async fn network_errors_and_inactive_servers() {
    let sb = sandbox().await;
    let table = run(&sb, &["network", "1001"]).await.ok().stdout;
    assert_eq!(
        table.lines().filter(|l| l.starts_with("error ")).count(),
        2,
        "{table}"
    );
    assert_eq!(
        table.lines().filter(|l| l.starts_with("inactive ")).count(),
        1,
        "{table}"
    );
    let json = run(&sb, &["network", "1012", "--json"]).await.ok().json();
    assert_eq!(json["service_id"], 1012);
    assert_eq!(json["errors"].as_array().unwrap().len(), 3);
    assert_eq!(json["inactive"].as_array().unwrap().len(), 2);
    // Service 1013's client was removed: the server answers the 400 ClientID error.
    run(&sb, &["network", "1013"])
        .await
        .fails(4, "ClientID not found");
}
