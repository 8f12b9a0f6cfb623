//! Every call of the API as a value: what the fetcher is asked to run, what the dashboard
//! and the command line hold while waiting, and the key by which identical in-flight GETs
//! are recognised.

use super::ApiClient;
use super::error::ApiError;
use super::iplist::IpList;
use super::model::*;

/// One request of spec section 4, by its endpoint and parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// 1: GET /api/clients
    Clients,
    /// 2: GET /api/stats/{id}
    Stats(u64),
    /// 3: GET /api/rate/{id}
    Rate(u64),
    /// 4: GET /api/product/{pid}
    Product(u64),
    /// 5: POST /api/product/{pid}. Two attempts at the same order differ by
    /// `body.attempt` (never sent), so they are two requests, never one.
    Order {
        product_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        body: Box<OrderRequest>,
    },
    /// 6: GET /api/products
    Products,
    /// 7: GET /api/products/orderby/{field}
    ProductsOrderedBy(SortField),
    /// 8: GET /api/networkstatus/errors/{id}
    NetworkErrors(u64),
    /// 9: GET /api/networkstatus/inactive/{id}
    NetworkInactive(u64),
    /// 10: GET /api/billing/credit
    Credit,
    /// 11: GET /api/billing/invoices
    Invoices,
    /// 12: GET /api/billing/invoice/{id}
    Invoice(u64),
    /// 13: GET /api/service/{id}
    Service(u64),
    /// 14: GET /api/services
    Services,
    /// 15: PUT /api/service/{id}
    UpdateService {
        service_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        update: Box<ServiceUpdate>,
    },
    /// 16: GET /api/iplist/{typel}/{formatl}/{id}
    IpList {
        service_id: u64,
        /// Boxed, like every payload wider than an ID (see [`Request::SIZE`]).
        list: Box<IpListKind>,
    },
}

/// Which IP list endpoint 16 sends: its `typel` and `formatl` path parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IpListKind {
    pub list_type: IpListType,
    pub format: IpListFormat,
}

/// The typed answer to a [`Request`], one variant per endpoint.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    Clients(Vec<Client>),
    Stats(Vec<StatEntry>),
    Rate(Vec<RateEntry>),
    Product(Product),
    Order(OrderResult),
    Products(Vec<ProductSummary>),
    NetworkErrors(Vec<String>),
    NetworkInactive(Vec<String>),
    Credit(Credit),
    Invoices(Vec<Invoice>),
    Invoice(Vec<Invoice>),
    Service(Service),
    Services(Vec<ServiceSummary>),
    Update(UpdateResult),
    IpList(IpList),
}

impl Response {
    /// How many entries a list answer holds; `None` for an answer that is not a list.
    pub fn list_len(&self) -> Option<usize> {
        Some(match self {
            Response::Clients(v) => v.len(),
            Response::Stats(v) => v.len(),
            Response::Rate(v) => v.len(),
            Response::Products(v) => v.len(),
            Response::NetworkErrors(v) | Response::NetworkInactive(v) => v.len(),
            Response::Invoices(v) | Response::Invoice(v) => v.len(),
            Response::Services(v) => v.len(),
            _ => return None,
        })
    }
}

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
        matches!(self, Request::Order { .. } | Request::UpdateService { .. })
    }

    /// The HTTP method, for logs and messages.
    pub fn method(&self) -> &'static str {
        match self {
            Request::Order { .. } => "POST",
            Request::UpdateService { .. } => "PUT",
            _ => "GET",
        }
    }

    /// The path below the base URL, segments unencoded (for logs and messages; the client
    /// encodes them when it sends).
    pub fn path(&self) -> String {
        self.segments().join("/")
    }

    pub(crate) fn segments(&self) -> Vec<String> {
        let s = |parts: &[&str]| parts.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>();
        let id = |x: &u64| x.to_string();
        match self {
            Request::Clients => s(&["api", "clients"]),
            Request::Stats(i) => s(&["api", "stats", &id(i)]),
            Request::Rate(i) => s(&["api", "rate", &id(i)]),
            Request::Product(i) | Request::Order { product_id: i, .. } => {
                s(&["api", "product", &id(i)])
            }
            Request::Products => s(&["api", "products"]),
            Request::ProductsOrderedBy(f) => s(&["api", "products", "orderby", f.as_str()]),
            Request::NetworkErrors(i) => s(&["api", "networkstatus", "errors", &id(i)]),
            Request::NetworkInactive(i) => s(&["api", "networkstatus", "inactive", &id(i)]),
            Request::Credit => s(&["api", "billing", "credit"]),
            Request::Invoices => s(&["api", "billing", "invoices"]),
            Request::Invoice(i) => s(&["api", "billing", "invoice", &id(i)]),
            Request::Service(i) | Request::UpdateService { service_id: i, .. } => {
                s(&["api", "service", &id(i)])
            }
            Request::Services => s(&["api", "services"]),
            Request::IpList { service_id, list } => s(&[
                "api",
                "iplist",
                list.list_type.as_str(),
                list.format.as_str(),
                &id(service_id),
            ]),
        }
    }
}

impl ApiClient {
    /// Runs any request; the typed methods are thin wrappers over the same calls.
    pub async fn call(&self, request: &Request) -> Result<Response, ApiError> {
        Ok(match request {
            Request::Clients => Response::Clients(self.clients().await?),
            Request::Stats(id) => Response::Stats(self.stats(*id).await?),
            Request::Rate(id) => Response::Rate(self.rate(*id).await?),
            Request::Product(pid) => Response::Product(self.product(*pid).await?),
            Request::Order { product_id, body } => {
                Response::Order(self.order(*product_id, body).await?)
            }
            Request::Products => Response::Products(self.products().await?),
            Request::ProductsOrderedBy(f) => Response::Products(self.products_ordered_by(f).await?),
            Request::NetworkErrors(id) => Response::NetworkErrors(self.network_errors(*id).await?),
            Request::NetworkInactive(id) => {
                Response::NetworkInactive(self.network_inactive(*id).await?)
            }
            Request::Credit => Response::Credit(self.credit().await?),
            Request::Invoices => Response::Invoices(self.invoices().await?),
            Request::Invoice(id) => Response::Invoice(self.invoice(*id).await?),
            Request::Service(id) => Response::Service(self.service(*id).await?),
            Request::Services => Response::Services(self.services().await?),
            Request::UpdateService { service_id, update } => {
                Response::Update(self.update_service(*service_id, update).await?)
            }
            Request::IpList { service_id, list } => Response::IpList(
                self.ip_list(*service_id, &list.list_type, &list.format)
                    .await?,
            ),
        })
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
}
