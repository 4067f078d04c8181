//! The OpenAPI importer: the project's second compiler, from the vendor's OpenAPI descriptions to
//! the spec.
//!
//! - [`openapi`]: a typed model of the descriptions (schemas, references, media types) and the
//!   structural limits checked before one is read.
//! - [`import`]: converts the description schemas at the places the curated spec names into
//!   spec YAML (`spec/<api>/imported/<area>.yaml`), and drafts the operations the spec lacks.
//! - [`audit`]: compares the spec with the descriptions (statuses, media types, versions,
//!   bodies, paging, services) and reports what disagrees.
//!
//! Names, reserved words and headers come from the generator (`ruckus-codegen`), so what the
//! importer writes is what the generator accepts. The command line (`cargo xtask import`,
//! `cargo xtask audit`) lives in xtask, which prints and sets exit codes.

pub mod audit;
pub mod drift;
pub mod import;
pub mod openapi;
