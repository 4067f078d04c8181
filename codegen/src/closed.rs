//! The spec's closed sets: every keyword a spec field accepts from a fixed list.
//!
//! Each set is a Rust enum of `ruckus-one-catalog`, used by the spec model ([`crate::spec`]), the
//! IR ([`crate::ir`]) and the tables the generator writes, so emitters match exhaustively and the
//! tables' readers see the same sets. serde rejects a value outside a set with a located
//! diagnostic that names the accepted spellings.

pub use ruckus_one_catalog::closed::{
    AuthKind, BodyKind, FamilyKind, LifecycleStatus, LimitScope, Method, PageStyle, ParamLocation,
    ResponseKind, Role,
};
pub use ruckus_one_catalog::closed::{FieldFlag, ResourceShape, UpdateStyle};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_value_outside_a_set_is_refused_at_its_line() {
        let err = serde_yaml::from_str::<Vec<Method>>("- GET\n- FETCH\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("method `FETCH` must be GET, POST, PUT, PATCH or DELETE")
                && err.contains("line 2"),
            "{err}"
        );
    }
}
