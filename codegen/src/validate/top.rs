//! The top-level file: the crate, the token service and the list of APIs.

use super::rules::{plain_name, url_chars};
use super::{At, Validator};
use crate::emit::reserved;
use crate::ir::{ApiIr, AuthIr, CrateIr, Ir, Lifecycle};
use crate::load::Loaded;
use crate::names;
use crate::spec;
use std::collections::BTreeSet;

impl Validator {
    pub(super) fn ir(&mut self, loaded: &Loaded, display_root: &std::path::Path) -> Ir {
        let top = &loaded.top;
        let root = At::file(&loaded.top_file);
        let auth = self.auth(&top.auth, &root);
        self.krate(&top.krate, &root);
        let mut api_names = BTreeSet::new();
        let mut apis = Vec::new();
        for (api, areas) in top.apis.iter().zip(&loaded.areas) {
            let at = root.with(&["apis:", &format!("name: {}", api.name)]);
            self.api_name(&api.name, &at, &mut api_names);
            apis.push(self.api(api, areas, &at, display_root));
        }
        let has_experimental = apis.iter().any(|a: &ApiIr| {
            a.areas.iter().any(|ar| {
                ar.operations
                    .iter()
                    .any(|o| matches!(o.lifecycle, Lifecycle::Experimental { .. }))
            })
        });
        Ir {
            krate: CrateIr {
                name: top.krate.name.clone(),
                version: top.krate.version.clone(),
                description: top.krate.description.clone(),
                has_experimental,
                area_features: top.krate.area_features,
                doc_examples: top.krate.doc_examples,
                guide: loaded.guide.clone(),
            },
            auth,
            apis,
        }
    }

    fn auth(&mut self, auth: &spec::Auth, root: &At<'_>) -> AuthIr {
        let url_at = root.with(&["auth:", "token_url:"]);
        let bare_at = root.with(&["auth:", "token_url_without_tenant:"]);
        let ir = AuthIr {
            description: auth.description.clone(),
            token_url: self.setting(&url_at, &auth.token_url),
            token_url_without_tenant: self.setting(&bare_at, &auth.token_url_without_tenant),
            tenant_header: self.setting(
                &root.with(&["auth:", "tenant_header:"]),
                &auth.tenant_header,
            ),
        };
        let url = &auth.token_url.value;
        for (at, value, what) in [
            (&url_at, url, "`token_url`"),
            (
                &bare_at,
                &auth.token_url_without_tenant.value,
                "`token_url_without_tenant`",
            ),
        ] {
            if let Err(msg) = url_chars(value, what, true) {
                self.err(at, msg);
            }
        }
        let header = &auth.tenant_header.value;
        if !plain_name(header, "-_", 100) {
            self.err(
                &root.with(&["auth:", "tenant_header:"]),
                format!("tenant header `{header}` may only contain letters, digits, `-` and `_`"),
            );
        }
        if !url.contains("{host}") || !url.contains("{tenant_id}") {
            self.err(
                &url_at,
                "`token_url` must contain `{host}` and `{tenant_id}`",
            );
        }
        if !auth.token_url_without_tenant.value.contains("{host}") {
            self.err(&bare_at, "`token_url_without_tenant` must contain `{host}`");
        }
        ir
    }

    fn krate(&mut self, krate: &spec::CrateSettings, root: &At<'_>) {
        let name_ok = krate.name.starts_with(|c: char| c.is_ascii_alphabetic())
            && krate
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !names::is_keyword(&krate.name.replace('-', "_"));
        if !name_ok {
            self.err(
                &root.with(&["crate:", "name:"]),
                format!(
                    "crate name `{}` is not a Cargo package name (letters, digits, `-`, `_`)",
                    krate.name
                ),
            );
        }
        let semver = krate.version.split(['-', '+']).next().unwrap_or_default();
        if semver.split('.').count() != 3
            || !semver
                .split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        {
            self.err(
                &root.with(&["crate:", "version:"]),
                format!(
                    "crate version `{}` is not a semantic version (e.g. 0.1.0)",
                    krate.version
                ),
            );
        }
    }

    fn api_name(&mut self, name: &str, at: &At<'_>, seen: &mut BTreeSet<String>) {
        if names::snake(name).as_deref() != Some(name) {
            self.err(
                at,
                format!("API name `{name}` must be a snake_case Rust identifier"),
            );
        }
        if reserved::API_NAMES.contains(&name) {
            self.err(
                at,
                format!("API name `{name}` is reserved: it would clash with an item of the generated crate root"),
            );
        }
        if !seen.insert(name.to_owned()) {
            self.err(at, format!("duplicate API name `{name}`"));
        }
    }
}
