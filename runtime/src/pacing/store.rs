//! Where the buckets live: the client's memory, or a store several processes share.

#[cfg(feature = "redis")]
use std::sync::Arc;

#[cfg(feature = "redis")]
use super::RedisStore;

/// Where a client keeps its pacing buckets ([`Pacing::store`](crate::Pacing::store)).
///
/// By default ([`memory`](PacingStore::memory)) in the client, shared by its clones: right for
/// one process. Processes that act for the same tenants (several workers, a scheduler and a
/// sync job, machines behind a queue) each believe they own the tenants' budgets; with the
/// `redis` feature, `PacingStore::redis` keeps the buckets in a Redis server they all use, so
/// they share each budget instead.
#[derive(Clone, Default)]
pub struct PacingStore {
    #[cfg(feature = "redis")]
    shared: Option<Arc<RedisStore>>,
}

impl PacingStore {
    /// The client's memory (the default).
    pub fn memory() -> PacingStore {
        PacingStore::default()
    }

    /// The buckets of `store`, a Redis server the processes share (see `RedisStore`).
    #[cfg(feature = "redis")]
    pub fn redis(store: RedisStore) -> PacingStore {
        PacingStore {
            shared: Some(Arc::new(store)),
        }
    }

    /// Whether the buckets are shared with other processes.
    pub fn is_shared(&self) -> bool {
        #[cfg(feature = "redis")]
        if self.shared.is_some() {
            return true;
        }
        false
    }

    /// The share of each budget paced locally while the shared store does not answer.
    pub(crate) fn fallback_share(&self) -> Option<f64> {
        #[cfg(feature = "redis")]
        if let Some(store) = &self.shared {
            return Some(store.share());
        }
        None
    }

    #[cfg(feature = "redis")]
    pub(crate) fn shared(&self) -> Option<&Arc<RedisStore>> {
        self.shared.as_ref()
    }
}

impl std::fmt::Debug for PacingStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(feature = "redis")]
        if let Some(store) = &self.shared {
            return f.debug_tuple("PacingStore").field(store).finish();
        }
        f.write_str("PacingStore(memory)")
    }
}

/// Two stores are equal when they are the same memory or the same shared store.
impl PartialEq for PacingStore {
    fn eq(&self, other: &PacingStore) -> bool {
        #[cfg(feature = "redis")]
        return match (&self.shared, &other.shared) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        #[cfg(not(feature = "redis"))]
        {
            let _ = other;
            true
        }
    }
}
