//! Each service's product type (static `fpr` or rotating `ppr`), learned without sending
//! requests that are expected to fail.
//!
//! The services list does not say it. The engine learns it, in this order:
//! 1. from the product catalogue: the services list names each service's product, the
//!    catalogue (`/api/products`) gives that name's product ID, and one product detail
//!    per distinct product (`/api/product/{pid}`) gives its type;
//! 2. from the service's own detail (`/api/service/{id}`), for a service whose product is
//!    not in the catalogue (hidden or withdrawn products are not listed);
//! 3. from an earlier run: learned types are kept in `service_types.json` in the state
//!    directory, by account, so a restart asks nothing again.
//!
//! A type is never learned from an expected failure: the rate of an fpr service is never
//! asked. (A 422 "not a rotating service" that still comes, say after a product changed
//! type, teaches `fpr` and is not counted as a failure.)

use super::store::Store;
use crate::api::{ProductType, ServiceSummary};
use crate::files::state::AccountsFile;
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};

/// The types known, by service ID.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Types {
    by_service: HashMap<u64, ProductType>,
    /// Changed since last saved.
    dirty: bool,
}

/// What is still needed to learn the type of the services whose type is unknown.
#[derive(Debug, Default, PartialEq)]
pub struct Needed {
    /// Product details to read (one per distinct product).
    pub products: Vec<u64>,
    /// Services whose product is not in the catalogue: their own detail.
    pub services: Vec<u64>,
}

impl Types {
    pub fn get(&self, id: u64) -> Option<&ProductType> {
        self.by_service.get(&id)
    }

    pub fn is_ppr(&self, id: u64) -> bool {
        self.get(id) == Some(&ProductType::Ppr)
    }

    pub fn all(&self) -> &HashMap<u64, ProductType> {
        &self.by_service
    }

    /// Learns `id`'s type; whether that changed anything.
    pub fn learn(&mut self, id: u64, product_type: &ProductType) -> bool {
        if !matches!(product_type, ProductType::Fpr | ProductType::Ppr) {
            return false;
        }
        if self.by_service.get(&id) == Some(product_type) {
            return false;
        }
        self.by_service.insert(id, product_type.clone());
        self.dirty = true;
        true
    }

    /// Takes what the store now says (service details, the catalogue and product
    /// details joined with the services by product name); whether anything was learned.
    pub fn learn_from(&mut self, store: &Store) -> bool {
        let Some(services) = store.services() else {
            return false;
        };
        let by_name = catalogue_types(store);
        let mut changed = false;
        for s in services {
            let known = store
                .service(s.service_id)
                .map(|d| d.product_type.clone())
                .filter(|t| matches!(t, ProductType::Fpr | ProductType::Ppr))
                .or_else(|| by_name.get(s.product_name.as_str()).cloned());
            if let Some(t) = known {
                changed |= self.learn(s.service_id, &t);
            }
        }
        changed
    }

    /// What to read to learn the types still unknown, given the store.
    pub fn needed(&self, store: &Store) -> Needed {
        let mut needed = Needed::default();
        let Some(services) = store.services() else {
            return needed;
        };
        let unknown: Vec<&ServiceSummary> = services
            .iter()
            .filter(|s| super::freshness::is_swept(&s.status) && self.get(s.service_id).is_none())
            .collect();
        if unknown.is_empty() {
            return needed;
        }
        // The catalogue is read first (the planner asks for it); until it answers, wait,
        // unless it failed for good, then ask the services themselves.
        let catalogue = store.products();
        let catalogue_failed = catalogue.is_none()
            && store
                .get(&crate::api::Request::Products)
                .is_some_and(|e| e.error.is_some());
        let ids_by_name: HashMap<&str, u64> = catalogue
            .into_iter()
            .flatten()
            .map(|p| (p.product_name.as_str(), p.product_id))
            .collect();
        let mut products = std::collections::BTreeSet::new();
        for s in unknown {
            match ids_by_name.get(s.product_name.as_str()) {
                // The detail is read once; if it answered and still told nothing (an
                // unknown type), the service's own detail says.
                Some(pid) if store.product(*pid).is_none() => {
                    products.insert(*pid);
                }
                _ if (catalogue.is_some() || catalogue_failed)
                    && store.service(s.service_id).is_none() =>
                {
                    needed.services.push(s.service_id);
                }
                _ => {}
            }
        }
        needed.products = products.into_iter().collect();
        needed
    }

    /// Takes the saved types, before anything was learned in this run.
    pub fn with_saved(mut self, saved: HashMap<u64, ProductType>) -> Self {
        for (id, t) in saved {
            self.by_service.entry(id).or_insert(t);
        }
        self
    }

    /// The types to save, when they changed since last asked.
    pub fn take_changed(&mut self) -> Option<HashMap<u64, ProductType>> {
        std::mem::take(&mut self.dirty).then(|| self.by_service.clone())
    }
}

/// Product name → type, from the catalogue and the product details read.
fn catalogue_types(store: &Store) -> HashMap<&str, ProductType> {
    store
        .products()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let detail = store.product(p.product_id)?;
            matches!(detail.product_type, ProductType::Fpr | ProductType::Ppr)
                .then(|| (p.product_name.as_str(), detail.product_type.clone()))
        })
        .collect()
}

/// `service_types.json` in the state directory: learned types by account (read through
/// [`AccountsFile`]: never a FIFO, a device or a link, at most a few MB, one account's
/// broken entry losing no other).
#[derive(Clone, Debug)]
pub struct TypesFile {
    file: AccountsFile<BTreeMap<u64, String>>,
}

/// The most services kept per account, so a hostile server cannot grow the file without end.
const MAX_KEPT: usize = 100_000;

impl TypesFile {
    pub fn new(path: PathBuf) -> Self {
        Self {
            file: AccountsFile::new(path),
        }
    }

    /// `service_types.json` in the XDG state directory.
    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("service_types.json")))
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The saved types of `account` (a missing or broken file gives none), and what was
    /// wrong with the file if anything was.
    pub fn load(&self, account: &str) -> (HashMap<u64, ProductType>, Option<String>) {
        let (saved, problem) = self.file.load(account);
        let types = saved
            .unwrap_or_default()
            .into_iter()
            .map(|(id, t)| (id, ProductType::parse(&t)))
            .filter(|(_, t)| matches!(t, ProductType::Fpr | ProductType::Ppr))
            .collect();
        (types, problem)
    }

    pub fn save(&self, account: &str, types: &HashMap<u64, ProductType>) -> io::Result<()> {
        let kept = types
            .iter()
            .take(MAX_KEPT)
            .map(|(id, t)| (*id, t.as_str().to_owned()))
            .collect();
        self.file.update(|accounts| {
            accounts.insert(account.to_owned(), kept);
        })
    }
}
