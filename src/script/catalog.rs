//! `clients`, `products`, `product`: what can be ordered, and for whom.

use super::args::{ClientsArgs, OutputArgs, ProductArgs, ProductsArgs};
use super::output::{Align, Details, Table, cell, date, id, json, money, or_missing, yes_no};
use super::{Failure, Form, Printed, Script, Session};

pub async fn clients(s: &mut Session<'_>, form: Form) -> Printed {
    let clients = s
        .client()
        .await?
        .clients()
        .await
        .map_err(Failure::api("List clients"))?;
    s.saw(crate::seen::Kind::Clients, crate::seen::clients(&clients));
    if form == Form::Json {
        return Ok(json(&clients));
    }
    let mut t = Table::new(&[("ID", Align::Right), ("EMAIL", Align::Left)]);
    for c in &clients {
        t.row([c.id.to_string(), cell(&c.email)]);
    }
    Ok(t.render_as(form))
}

pub async fn products(s: &mut Session<'_>, a: &ProductsArgs, form: Form) -> Printed {
    let client = s.client().await?;
    let products = match &a.sort {
        Some(field) => client
            .products_ordered_by(field)
            .await
            .map_err(Failure::api(format!("List products by {field}")))?,
        None => client
            .products()
            .await
            .map_err(Failure::api("List products"))?,
    };
    super::output::warn_if_skipped(&products, None);
    s.saw(
        crate::seen::Kind::Products,
        crate::seen::products(&products.items),
    );
    Ok(super::output::records(
        &products,
        form,
        &[
            ("ID", Align::Right),
            ("NAME", Align::Left),
            ("GROUP", Align::Left),
            ("PRICE", Align::Right),
            ("CREATED", Align::Left),
        ],
        |p| {
            vec![
                p.product_id.to_string(),
                cell(&p.product_name),
                cell(&p.group_name),
                money(p.price),
                date(p.created_at),
            ]
        },
    ))
}

/// The single product has no name in the spec (2.3); the list (2.2) has it, so both are
/// read and the name joined in, as `productName` in `--json` too. A list that fails only
/// costs the name.
pub async fn product(s: &mut Session<'_>, a: &ProductArgs) -> Printed {
    let client = s.client().await?;
    let (p, list) = tokio::join!(client.product(a.pid), client.products());
    let mut p = p.map_err(Failure::read(format!("Read product {}", a.pid)))?;
    if p.product_name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty())
    {
        p.product_name = list.ok().and_then(|list| {
            list.into_iter()
                .find(|x| x.product_id == a.pid)
                .map(|x| x.product_name)
        });
    }
    if a.output.json {
        return Ok(json(&p));
    }
    let mut d = Details::new();
    d.add("Product ID", p.product_id.to_string());
    if let Some(name) = &p.product_name {
        d.add("Name", or_missing(name));
    }
    d.add("Type", or_missing(p.product_type.as_str()))
        .add("Price", money(p.price))
        .add(
            "Group",
            format!("{} ({})", or_missing(&p.group_name), id(p.group_id)),
        )
        .add("Created", date(p.created_at))
        .add("Hidden", yes_no(p.product_hidden))
        .add("Group hidden", yes_no(p.group_hidden))
        .add("IP count", id(p.ip_count))
        .add(
            "Updated",
            p.update_time.map_or_else(
                || super::output::MISSING.to_owned(),
                |t| t.format("%Y-%m-%d %H:%M:%S").to_string(),
            ),
        );
    let geo: Vec<&str> = p.geo.iter().map(|g| g.0.as_str()).collect();
    d.add(
        "Geo",
        if geo.is_empty() {
            super::output::MISSING.to_owned()
        } else {
            geo.join(", ")
        },
    );
    Ok(d.render())
}

impl Script for ClientsArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        clients(s, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
}

impl Script for ProductsArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        products(s, self, self.form()).await
    }
    fn format(&self) -> Option<Form> {
        self.format.format
    }
}

impl Script for ProductArgs {
    fn output(&self) -> Option<&OutputArgs> {
        Some(&self.output)
    }
    async fn print(&self, s: &mut Session<'_>) -> Printed {
        product(s, self).await
    }
}
