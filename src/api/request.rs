//! Every call of the API as a value, defined once: the table below is the one place an
//! endpoint is spelled. Each row gives the request's variant, its method, path, decoder,
//! read limit and list cap, the words the status line uses, and the typed result the
//! fetcher answers with ([`Loaded`]); see [`super::endpoint_macro`] for what a row makes.
//!
//! [`Request`] is also what the fetcher queues, what the dashboard and the command line
//! hold while waiting, and the key by which identical in-flight GETs are recognised. It
//! is the request's content only: who sent it is a [`Ticket`] carried beside it.
//!
//! Read limits and list caps are the figures [`super::limits`] explains.

use super::decode::{
    decode, decode_addresses, decode_list, decode_records, decode_update, parse_ip_list,
};
use super::error::ApiError;
use super::iplist::IpList;
use super::model::*;
use super::{ApiClient, MAX_BODY};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

// One row per endpoint of spec section 4, in its order.
endpoints! {
    /// 1: GET /api/clients
    Clients => {
        method: "GET",
        label: "/api/clients",
        path: ["api", "clients"],
        output: Vec<Client>,
        decode: |request, body| decode_list(request.asked(), &body),
        read: MAX_BODY,
        list: 100_000,
        what: "Clients",
        client:
            /// 1: the reseller's clients.
            fn clients() = Request::Clients,
    }
    /// 2: GET /api/stats/{id}
    Stats(id: u64) => {
        method: "GET",
        label: "/api/stats/{id}",
        path: ["api", "stats", id],
        output: Vec<StatEntry>,
        decode: |request, body| decode_list(request.asked(), &body),
        read: 1 << 20,
        // Ten years of days.
        list: 3_660,
        what: "Usage of service {id}",
        client:
            /// 2: daily statistics of a ppr service.
            fn stats(service_id: u64) = Request::Stats(service_id),
    }
    /// 3: GET /api/rate/{id}
    Rate(id: u64) => {
        method: "GET",
        label: "/api/rate/{id}",
        path: ["api", "rate", id],
        output: Vec<RateEntry>,
        decode: |request, body| decode_list(request.asked(), &body),
        read: 1 << 20,
        list: 100,
        what: "Rate of service {id}",
        client:
            /// 3: rate against limit of a ppr service.
            fn rate(service_id: u64) = Request::Rate(service_id),
    }
    /// 4: GET /api/product/{pid}
    Product(id: u64) => {
        method: "GET",
        label: "/api/product/{pid}",
        path: ["api", "product", id],
        output: Product,
        decode: |request, body| decode(request.asked(), &body),
        read: 1 << 20,
        what: "Product {id}",
        client:
            /// 4: one product.
            fn product(product_id: u64) = Request::Product(product_id),
    }
    /// 5: POST /api/product/{pid}. Two attempts at the same order are the same request
    /// sent twice, each with its own [`Ticket`] (a write is never merged with another).
    Order {
        product_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        body: Box<OrderRequest>,
    } => {
        method: "POST",
        label: "/api/product/{pid}",
        path: ["api", "product", product_id],
        output: OrderResult,
        decode: |request, answer| decode(request.asked(), &answer),
        sends: serde_json::to_vec(body).unwrap_or_default(),
        read: 1 << 20,
        what: "Order of product {product_id}",
        client:
            /// 5: orders a service. Sent exactly once; on a timeout or a lost connection the
            /// outcome is unknown ([`ApiError::outcome_unknown`]) and the caller must re-read the
            /// services rather than order again.
            fn order(product_id: u64, body: &OrderRequest) =
                Request::order(product_id, body.clone()),
    }
    /// 6: GET /api/products
    Products => {
        method: "GET",
        label: "/api/products",
        path: ["api", "products"],
        output: Listed<ProductSummary>,
        decode: |request, body| decode_records(request.asked(), &body),
        read: 4 << 20,
        list: 10_000,
        what: "Products",
        client:
            /// 6: every product.
            fn products() = Request::Products,
    }
    /// 7: GET /api/products/orderby/{field}
    ProductsOrderedBy(field: SortField) => {
        method: "GET",
        label: "/api/products/orderby/{field}",
        path: ["api", "products", "orderby", field.as_str()],
        output: Listed<ProductSummary>,
        decode: |request, body| decode_records(request.asked(), &body),
        read: 4 << 20,
        list: 10_000,
        what: "Products by {field}",
        client:
            /// 7: every product, ordered by `field` (the direction is the server's).
            fn products_ordered_by(field: &SortField) = Request::ProductsOrderedBy(field.clone()),
    }
    /// 8: GET /api/networkstatus/errors/{id}
    NetworkErrors(id: u64) => {
        method: "GET",
        label: "/api/networkstatus/errors/{id}",
        path: ["api", "networkstatus", "errors", id],
        output: Vec<String>,
        decode: |request, body| decode_addresses(request.asked(), &body),
        read: MAX_BODY,
        list: 100_000,
        what: "Servers in error of service {id}",
        client:
            /// 8: proxy servers of a service in an error state.
            fn network_errors(service_id: u64) = Request::NetworkErrors(service_id),
    }
    /// 9: GET /api/networkstatus/inactive/{id}
    NetworkInactive(id: u64) => {
        method: "GET",
        label: "/api/networkstatus/inactive/{id}",
        path: ["api", "networkstatus", "inactive", id],
        output: Vec<String>,
        decode: |request, body| decode_addresses(request.asked(), &body),
        read: MAX_BODY,
        list: 100_000,
        what: "Inactive servers of service {id}",
        client:
            /// 9: inactive proxy servers of a service.
            fn network_inactive(service_id: u64) = Request::NetworkInactive(service_id),
    }
    /// 10: GET /api/billing/credit
    Credit => {
        method: "GET",
        label: "/api/billing/credit",
        path: ["api", "billing", "credit"],
        output: Credit,
        decode: |request, body| decode(request.asked(), &body),
        read: 1 << 20,
        what: "Credit",
        client:
            /// 10: the account credit.
            fn credit() = Request::Credit,
    }
    /// 11: GET /api/billing/invoices
    Invoices => {
        method: "GET",
        label: "/api/billing/invoices",
        path: ["api", "billing", "invoices"],
        output: Listed<Invoice>,
        decode: |request, body| decode_records(request.asked(), &body),
        read: MAX_BODY,
        list: 100_000,
        what: "Invoices",
        client:
            /// 11: every invoice.
            fn invoices() = Request::Invoices,
    }
    /// 12: GET /api/billing/invoice/{id} (the spec answers it as an array)
    Invoice(id: u64) => {
        method: "GET",
        label: "/api/billing/invoice/{id}",
        path: ["api", "billing", "invoice", id],
        output: Vec<Invoice>,
        decode: |request, body| decode_list(request.asked(), &body),
        read: 1 << 20,
        list: 100,
        what: "Invoice {id}",
        client:
            /// 12: one invoice (the spec answers it as an array).
            fn invoice(invoice_id: u64) = Request::Invoice(invoice_id),
    }
    /// 13: GET /api/service/{id}
    Service(id: u64) => {
        method: "GET",
        label: "/api/service/{id}",
        path: ["api", "service", id],
        output: Service,
        decode: |request, body| decode(request.asked(), &body),
        read: 1 << 20,
        what: "Service {id}",
        client:
            /// 13: one service with its credentials.
            fn service(service_id: u64) = Request::Service(service_id),
    }
    /// 14: GET /api/services
    Services => {
        method: "GET",
        label: "/api/services",
        path: ["api", "services"],
        output: Vec<ServiceSummary>,
        decode: |request, body| decode_list(request.asked(), &body),
        read: MAX_BODY,
        list: 100_000,
        what: "Services",
        client:
            /// 14: every service.
            fn services() = Request::Services,
    }
    /// 15: PUT /api/service/{id}
    UpdateService {
        service_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        update: Box<ServiceUpdate>,
    } => {
        method: "PUT",
        label: "/api/service/{id}",
        path: ["api", "service", service_id],
        output: UpdateResult,
        decode: |request, body| decode_update(request.asked(), update, &body),
        sends: update_body(update),
        read: 1 << 20,
        what: "Update of service {service_id}",
        client:
            /// 15: binds an IP, refreshes the IP list and/or changes the password. Sent
            /// exactly once.
            fn update_service(service_id: u64, update: &ServiceUpdate) =
                Request::UpdateService {
                    service_id,
                    update: Box::new(update.clone()),
                },
    }
    /// 16: GET /api/iplist/{typel}/{formatl}/{id}
    IpList {
        service_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        list: Box<IpListKind>,
    } => {
        method: "GET",
        label: "/api/iplist/{typel}/{formatl}/{id}",
        path: ["api", "iplist", list.list_type.as_str(), list.format.as_str(), service_id],
        output: IpList,
        // The body's own buffer becomes the list's text: a list can be megabytes.
        decode: |request, body| Ok(parse_ip_list(&list.list_type, &list.format, Vec::from(body))),
        read: MAX_BODY,
        what: "IP list of service {service_id}",
        client:
            /// 16: an IP list, as served and parsed.
            fn ip_list(service_id: u64, list_type: &IpListType, format: &IpListFormat) =
                Request::ip_list(service_id, list_type.clone(), format.clone()),
    }
}

/// Which IP list endpoint 16 sends: its `typel` and `formatl` path parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IpListKind {
    pub list_type: IpListType,
    pub format: IpListFormat,
}

/// The ID of one send of a write, made by whoever sends it (the dashboard gives one to
/// every form's request): carried beside the [`Request`], never inside it and never sent
/// to the server, and echoed with the answer, so two attempts at the same write are told
/// apart and each answer goes to the attempt that sent it. A read needs none: identical
/// reads are one request, and its answer, known by its parameters, serves every asker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

impl Request {
    /// The most a `Request` may take, in bytes. Tens of thousands are queued, deduplicated
    /// and tracked in flight at once (four per service on a 10,000-service account), so
    /// each of those collections costs a multiple of this; payloads wider than an ID are
    /// boxed to keep it (a test holds it).
    pub const SIZE: usize = 32;

    /// GET endpoint 16.
    pub fn ip_list(service_id: u64, list_type: IpListType, format: IpListFormat) -> Self {
        Request::IpList {
            service_id,
            list: Box::new(IpListKind { list_type, format }),
        }
    }

    /// POST endpoint 5.
    pub fn order(product_id: u64, body: OrderRequest) -> Self {
        Request::Order {
            product_id,
            body: Box::new(body),
        }
    }

    /// POST and PUT change the account; they are never retried or deduplicated.
    pub fn is_write(&self) -> bool {
        self.method() != "GET"
    }

    /// The path below the base URL, segments unencoded (for logs and messages; the client
    /// encodes them when it sends).
    pub fn path(&self) -> String {
        self.segments().join("/")
    }
}

/// The JSON body of endpoint 15: only the operations asked for, the password base64.
fn update_body(update: &ServiceUpdate) -> Vec<u8> {
    let mut body = serde_json::Map::new();
    if let Some(ip) = &update.setip {
        body.insert("setip".into(), ip.clone().into());
    }
    if update.update_list {
        body.insert("update_list".into(), "true".into());
    }
    if let Some(pw) = &update.password {
        body.insert("password".into(), BASE64.encode(pw.expose()).into());
    }
    serde_json::to_vec(&body).unwrap_or_default()
}

impl ApiClient {
    /// Runs any request and answers with its typed result; the typed methods are thin
    /// wrappers over the same sending and decoding.
    pub async fn call(&self, request: &Request) -> Loaded {
        match self.send(request, request.body()).await {
            Ok(body) => request.decode(body),
            Err(error) => request.failed(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_stays_small() {
        // Widening a variant multiplies through every queue and in-flight map: box the
        // payload instead (see `Request::SIZE`).
        assert!(
            std::mem::size_of::<Request>() <= Request::SIZE,
            "Request is {} bytes",
            std::mem::size_of::<Request>()
        );
    }

    #[test]
    fn a_row_gives_path_method_label_and_words() {
        let r = Request::ip_list(7, IpListType::HttpIp, IpListFormat::Txt);
        assert_eq!(r.path(), "api/iplist/http-ip/txt/7");
        assert_eq!((r.method(), r.is_write()), ("GET", false));
        assert_eq!(r.label(), "/api/iplist/{typel}/{formatl}/{id}");
        assert_eq!(r.what(), "IP list of service 7");
        let r = Request::ProductsOrderedBy(SortField::Price);
        assert_eq!(r.what(), format!("Products by {}", SortField::Price));
        assert_eq!(r.list_cap(), Some(10_000));
        assert_eq!(Request::Credit.list_cap(), None);
        assert!(Request::order(3, OrderRequest::default()).is_write());
    }

    #[test]
    fn an_answer_keeps_its_request() {
        let loaded = Request::Stats(9).decode(bytes::Bytes::from_static(b"[]"));
        assert!(matches!(&loaded, Loaded::Stats(9, Ok(v)) if v.is_empty()));
        assert_eq!(loaded.request(), Request::Stats(9));
        assert_eq!(loaded.kept(), Some(0));
        let failed = Request::Services.failed(ApiError::Unauthenticated);
        assert!(matches!(failed.error(), Some(ApiError::Unauthenticated)));
        assert!(
            Loaded::pair(Request::Credit, Ok(Response::Services(vec![]))).is_none(),
            "another endpoint's answer is refused"
        );
    }
}
