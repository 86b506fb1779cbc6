//! A process-wide cache of immutable plans shared through `Arc` (DCT plans, Kaldi front-end
//! plans): made on a miss, cleared when it holds `cap` plans. Entries are keyed by the plan's
//! type as well as by `K`, so one `static` in a generic function serves every element type.

use crate::error::SkResult;
use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

type Entries<K> = BTreeMap<(TypeId, K), Arc<dyn Any + Send + Sync>>;

/// See the module documentation.
pub(crate) struct PlanStore<K> {
    entries: Mutex<Entries<K>>,
    cap: usize,
}

impl<K: Ord> PlanStore<K> {
    /// An empty cache cleared when it reaches `cap` plans.
    pub(crate) const fn new(cap: usize) -> Self {
        PlanStore {
            entries: Mutex::new(BTreeMap::new()),
            cap,
        }
    }

    /// The plan cached under `key`, else `make()`'s (cached unless it fails).
    pub(crate) fn get_or_make<P: Any + Send + Sync>(
        &self,
        key: K,
        make: impl FnOnce() -> SkResult<P>,
    ) -> SkResult<Arc<P>> {
        let key = (TypeId::of::<P>(), key);
        let hit = self.lock().get(&key).cloned();
        if let Some(p) = hit.and_then(|p| p.downcast::<P>().ok()) {
            return Ok(p);
        }
        let plan = Arc::new(make()?);
        let mut c = self.lock();
        if c.len() >= self.cap {
            c.clear();
        }
        c.insert(key, plan.clone());
        Ok(plan)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<K>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SkError;

    #[test]
    fn plans_are_shared_per_type_and_key_and_cleared_when_full() {
        let c = PlanStore::<u8>::new(2);
        let a = c.get_or_make(1, || Ok(1.5_f64)).unwrap();
        assert!(Arc::ptr_eq(&a, &c.get_or_make(1, || Ok(9.0_f64)).unwrap()));
        assert_eq!(*c.get_or_make(1, || Ok(7_u32)).unwrap(), 7); // same key, other type
        assert!(c
            .get_or_make(2, || Err::<f64, _>(SkError::BadArgument("no".into())))
            .is_err());
        assert_eq!(*c.get_or_make(2, || Ok(2.5_f64)).unwrap(), 2.5); // a failure is not cached
        assert_eq!(*c.get_or_make(1, || Ok(3.0_f64)).unwrap(), 3.0); // full: cleared, remade
    }
}
