//! Named RUCKUS One profiles and their client secrets, shared by the `ruckus` command line and
//! the `ruckus-mcp` server so that both find the same credentials in the same order.
//!
//! A profile (client id, the tenant that owns the token, region, base URL, a default tenant to
//! act for) lives in `config.yaml` under the config directory; its client secret lives in the
//! OS keychain, or where there is none, in `credentials.yaml` beside it. The directory is its
//! owner's alone (0700, files 0600) and a store another user could change is refused
//! ([`Error::Unsafe`]); files are replaced whole, one writer at a time. The config directory is `RUCKUS_CONFIG_DIR`, else
//! `$XDG_CONFIG_HOME/ruckus`, else `~/.config/ruckus`; `RUCKUS_KEYCHAIN=off` keeps secrets out
//! of the keychain.
//!
//! [`resolve`] builds the runtime's [`Config`](ruckus_one_runtime::Config) from, in order: the
//! caller's overrides (command-line flags), the environment (`RUCKUS_*`, as the runtime reads
//! it), and the stored profile and secret.
//!
//! ```no_run
//! use ruckus_one_profiles::{Overrides, Store, resolve};
//!
//! let store = Store::from_env();
//! let resolved = resolve(&store, "default", &Overrides::default(), |name| std::env::var(name).ok())?;
//! println!("token of tenant {}; acting for {:?}", resolved.token_tenant, resolved.tenant);
//! # Ok::<(), ruckus_one_profiles::Error>(())
//! ```

#![warn(missing_docs, unreachable_pub)]
mod depth;
mod error;
mod files;
mod guard;
mod keychain;
mod profile;
mod resolve;
mod secret;
mod store;

pub use error::Error;
pub use profile::Profile;
pub use resolve::{Overrides, Resolved, resolve};
pub use secret::SecretPlace;
pub use store::Store;
