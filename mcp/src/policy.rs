//! What the agent may do: read-only unless writes are turned on, deletes turned on apart, and
//! for MSPs only the customer tenants listed.

use std::collections::BTreeSet;

use crate::index::Effect;

/// Turns writes on when [`flag_on`] (`1`, `true`, `yes`, `on`), as `--allow-writes` does.
pub const WRITES_VAR: &str = "RUCKUS_MCP_ALLOW_WRITES";
/// Turns deletes on, with writes, as `--allow-deletes` does.
pub const DELETES_VAR: &str = "RUCKUS_MCP_ALLOW_DELETES";
/// The tenant allow-list, comma-separated ([`parse_tenants`]), when `--tenants` is not given.
pub const TENANTS_VAR: &str = "RUCKUS_MCP_TENANTS";

/// What the server lets the agent call; the default is read-only, for any tenant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Operations that create or change things (`invoke_write`); off: reads only.
    pub writes: bool,
    /// Deletes (also needs `writes`), each confirmed by the user.
    pub deletes: bool,
    /// The tenants calls may act for; `None`: any (the credential's own and its customers).
    pub tenants: Option<BTreeSet<String>>,
}

impl Policy {
    /// Why a call of `effect` for `tenant` is refused, if it is.
    pub fn refusal(&self, effect: Effect, tenant: Option<&str>) -> Option<String> {
        match effect {
            Effect::Write if !self.writes => {
                return Some(format!(
                    "writes are off: this server is read-only (start it with --allow-writes or {WRITES_VAR}=1)"
                ));
            }
            Effect::Delete if !(self.writes && self.deletes) => {
                return Some(format!(
                    "deletes are off (start the server with --allow-writes --allow-deletes, or {WRITES_VAR}=1 and {DELETES_VAR}=1)"
                ));
            }
            _ => {}
        }
        self.tenant_refusal(tenant)
    }

    /// Why acting for `tenant` is refused, if it is: with an allow-list, every call names a
    /// tenant of the list.
    pub fn tenant_refusal(&self, tenant: Option<&str>) -> Option<String> {
        let allowed = self.tenants.as_ref()?;
        match tenant {
            Some(t) if allowed.contains(t) => None,
            Some(t) => Some(format!(
                "tenant `{t}` is not in this server's allow-list; allowed: {}",
                allowed.iter().cloned().collect::<Vec<_>>().join(", ")
            )),
            None => Some(format!(
                "this server acts only for listed tenants: name one in `tenant` ({})",
                allowed.iter().cloned().collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// A comma-separated list of tenant ids (empty entries ignored); `None` when empty.
pub fn parse_tenants(text: &str) -> Option<BTreeSet<String>> {
    let set: BTreeSet<String> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    (!set.is_empty()).then_some(set)
}

/// Whether an environment flag's value turns it on (`1`, `true`, `yes`, `on`).
pub fn flag_on(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_by_default_and_deletes_apart() {
        let policy = Policy::default();
        assert!(policy.refusal(Effect::Read, None).is_none());
        assert!(
            policy
                .refusal(Effect::Write, None)
                .unwrap()
                .contains("read-only")
        );
        let writes = Policy {
            writes: true,
            ..Policy::default()
        };
        assert!(writes.refusal(Effect::Write, None).is_none());
        assert!(
            writes
                .refusal(Effect::Delete, None)
                .unwrap()
                .contains("deletes are off")
        );
    }

    #[test]
    fn the_allow_list_names_every_tenant() {
        let policy = Policy {
            tenants: parse_tenants(" a, b ,,"),
            ..Policy::default()
        };
        assert!(policy.refusal(Effect::Read, Some("a")).is_none());
        assert!(
            policy
                .refusal(Effect::Read, Some("c"))
                .unwrap()
                .contains("not in")
        );
        assert!(policy.refusal(Effect::Read, None).is_some());
        assert_eq!(parse_tenants(" , "), None);
    }
}
