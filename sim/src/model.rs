//! The generated tables, read through `ruckus-one-catalog`'s typed model.

pub use ruckus_one_catalog::{
    AuthKind, BodyKind, Catalog as Model, FamilyKind, LifecycleStatus, LimitScope, Method,
    PageStyle, ResponseKind, Role, Route, Table,
};
