//! The closed sets: every keyword the spec and the tables accept from a fixed list.
//!
//! One enum per set, used by the spec's generator (its spec model and IR match on them
//! exhaustively) and by every reader of the tables, so a value means the same everywhere. serde
//! rejects a value outside the set with a message that names the accepted spellings.

/// Declares a closed set: the enum, its spec spellings, and a `Deserialize` that rejects any
/// other spelling with "`<what>` `<value>` must be a, b or c".
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $spelling:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every member, in the order the spec format lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling used in the spec.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $spelling, )+
                }
            }

            /// The member spelled `s` in the spec.
            pub fn parse(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|m| m.as_str() == s)
            }

            /// The accepted spellings, `a, b or c`.
            pub fn spellings() -> String {
                one_of(&Self::ALL.iter().map(|m| m.as_str()).collect::<Vec<_>>())
            }

            /// The variant name, e.g. for the runtime's enum of the same members.
            pub fn variant(self) -> &'static str {
                match self {
                    $( $name::$variant => stringify!($variant), )+
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                // The value is checked inside the visitor, so serde_yaml locates an error at
                // the value itself rather than at the mapping around it.
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        write!(f, "{} ({})", $what, $name::spellings())
                    }
                    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<$name, E> {
                        $name::parse(s).ok_or_else(|| {
                            E::custom(format!(
                                "{} `{}` must be {}",
                                $what,
                                s,
                                $name::spellings()
                            ))
                        })
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

/// `a, b or c`.
fn one_of(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

closed_set! {
    /// What a service's published rate limit is counted for.
    LimitScope, "rate limit scope" {
        /// Each tenant (the delegated tenant a call acts for, else the token's own): the client
        /// paces it and the simulator enforces it.
        Tenant = "tenant",
        /// Each property (resident portal, enrollment): neither paced by the client nor enforced
        /// by the simulator, which do not know a call's property.
        Property = "property",
        /// Each workflow (device enrollment): neither paced nor enforced, as for a property.
        Workflow = "workflow",
    }
}

closed_set! {
    /// HTTP method of an operation.
    Method, "method" {
        /// `GET`: idempotent, so the client retries it after a `502`-`504` or a transport
        /// failure.
        Get = "GET",
        /// `POST`: a create or a query; retried only when the route [`reads`](crate::Route::reads).
        Post = "POST",
        /// `PUT`: replaces an object or a settings document; idempotent (retried).
        Put = "PUT",
        /// `PATCH`: changes the fields sent (a JSON merge patch in the simulator); not retried
        /// unless the route reads.
        Patch = "PATCH",
        /// `DELETE`: idempotent (retried); with a body of ids, a bulk delete.
        Delete = "DELETE",
    }
}

closed_set! {
    /// Lifecycle status of an operation.
    LifecycleStatus, "lifecycle status" {
        /// Supported: the spec's default when an operation gives no `lifecycle`.
        Stable = "stable",
        /// Still served; the spec's note names the replacement, [`Route::removal`] the date
        /// when known.
        ///
        /// [`Route::removal`]: crate::Route::removal
        Deprecated = "deprecated",
        /// May change without notice; the client has it only with its `experimental` feature.
        Experimental = "experimental",
        /// No longer served: the spec keeps it for the docs; the client and the tables leave it
        /// out.
        Removed = "removed",
    }
}

closed_set! {
    /// Where a parameter goes.
    ParamLocation, "parameter location" {
        /// Fills the `{name}` placeholder of the path template; always a required string.
        Path = "path",
        /// Sent in the URL's query string, only when given.
        Query = "query",
        /// Sent as a request header, beside the client's own (`Authorization`, the tenant header).
        Header = "header",
    }
}

closed_set! {
    /// How a request body is encoded.
    BodyKind, "request kind" {
        /// Serialized JSON, as `application/json` or a versioned vendor type (the default).
        Json = "json",
        /// `application/x-www-form-urlencoded` fields of a named object type (the token form).
        Form = "form",
        /// `multipart/form-data` with named parts (a file upload).
        Multipart = "multipart",
        /// Raw bytes with the operation's own media type (`image/png`).
        Binary = "binary",
    }
}

closed_set! {
    /// What a response carries.
    ResponseKind, "response kind" {
        /// A JSON body of the response schema (the default when the spec gives a type).
        Json = "json",
        /// Raw bytes (a file download), returned as they came.
        Binary = "binary",
        /// Text such as `text/csv`, returned as a `String`.
        Text = "text",
        /// No body (a `204`, the default without a type); read as JSON `null` beside a JSON
        /// success.
        Empty = "empty",
    }
}

closed_set! {
    /// How a paged operation selects its page (the runtime's `PageStyle`).
    PageStyle, "pagination style" {
        /// `POST .../query` with the page number in the JSON body's `page` field.
        QueryBody = "query_body",
        /// `page` (and `pageSize`) query parameters.
        QueryParams = "page_params",
        /// Spring-style `page` and `size` query parameters (pages usually from 0), items in
        /// `content`, the page says when it is the last.
        Spring = "spring",
    }
}

closed_set! {
    /// How the runtime decodes an error body (the runtime's `ErrorFamily`).
    FamilyKind, "error family kind" {
        /// `{errors: [{message, ...}], requestId}`.
        ErrorsArray = "errors_array",
        /// A single error object (with `reason`, `suggestion`).
        ErrorObject = "error_object",
        /// `{status, timestamp, message, debugMessage, subErrors}`.
        StatusMessage = "status_message",
        /// A flat `{code, message, reason, suggestion}` object.
        FlatObject = "flat_object",
        /// `errors` as an object mapping a field to its message.
        ErrorsMap = "errors_map",
        /// The resident portal's `{status, timestamp, message, detailedMessage, validationErrors}`.
        Portal = "portal",
    }
}

closed_set! {
    /// How an API's operations authenticate (the runtime's `ApiAuth`).
    AuthKind, "API auth" {
        /// The OAuth2 token of the shared token service.
        ClientCredentials = "client_credentials",
        /// A token the caller supplies (the resident portal's unit token).
        UnitToken = "unit_token",
    }
}

closed_set! {
    /// What the simulator does with an operation, inferred by the generator from the paths.
    Role, "role" {
        /// `POST` to a collection: stores a new object (one per entry of a list body) under the id
        /// the body names, else a fresh one; `409` when the id is taken.
        Create = "create",
        /// `GET` of a collection: its objects, paged by query parameters.
        List = "list",
        /// `POST .../query` of a collection: its objects, filtered, sorted and paged by the body.
        Query = "query",
        /// A query over the family's collections of every parent (`/venues/aps/query` over
        /// `/venues/{venueId}/aps`).
        QueryAcross = "query_across",
        /// A query of the calling tenant's customers (`/mspecs/query`): those the simulator's
        /// configuration names and those the tenant created.
        CustomerQuery = "customer_query",
        /// The tenant acted as, reading itself (`GET /tenants/self`).
        OwnTenant = "own_tenant",
        /// `GET` of one object, by the id in the last path parameter; `404` when absent.
        Read = "read",
        /// `PUT` of one object of a collection that `POST` creates: the body replaces it; `404`
        /// when absent.
        Replace = "replace",
        /// `PATCH` of one object: the body is merged into it (RFC 7386); `404` when absent.
        Merge = "merge",
        /// `DELETE` of one object: removes it; `404` when absent.
        Delete = "delete",
        /// `PUT` of one object of a collection nothing creates in: stores the body under the
        /// path's id, whether or not it exists.
        Upsert = "upsert",
        /// `DELETE` of a collection with a JSON list of ids as body: removes those present.
        BulkDelete = "bulk_delete",
        /// `GET` of a path that is also written but holds no collection: the document last
        /// written there, else the canned answer.
        SettingsRead = "settings_read",
        /// `PUT` (replacing) or `PATCH` (merging) such a path: stores the document by path.
        SettingsWrite = "settings_write",
        /// The API's activity read (`GET /activities/{requestId}`): the activity, `404` until it
        /// is visible.
        ActivityRead = "activity_read",
        /// The query of the activities collection: every visible activity, paged.
        ActivityQuery = "activity_query",
        /// Answered from the schemas, keeping no state.
        Canned = "canned",
    }
}

closed_set! {
    /// How the objects of a resource kind exist (see `resources.rs`).
    ResourceShape, "resource shape" {
        /// Objects created, listed, read, updated and deleted under their parent, each with
        /// its own id.
        Collection = "collection",
        /// One object per parent, read and replaced, never created or deleted (a venue's AP
        /// settings).
        Settings = "settings",
        /// A link between the parent and the object a path parameter names, made by a PUT and
        /// removed by a DELETE (a Wi-Fi network activated on a venue).
        Activation = "activation",
    }
}

closed_set! {
    /// How a resource kind's update operation changes an object.
    UpdateStyle, "update style" {
        /// The whole object is sent (PUT).
        Replace = "replace",
        /// Only the changed fields are sent (PATCH).
        Merge = "merge",
    }
}

closed_set! {
    /// What a field of a resource kind means for a comparison.
    FieldFlag, "field flag" {
        /// Set by the service (ids, timestamps, status, counters): never compared, never sent,
        /// never exported.
        ServiceSet = "service_set",
        /// Sent, never read back (compared only when a file sets it).
        WriteOnly = "write_only",
        /// A secret (a passphrase): exported as `${env:RUCKUS_SECRET_<NAME>}`, never written
        /// out, sent from the environment.
        Secret = "secret",
        /// Changes on its own: never compared.
        Volatile = "volatile",
        /// Filled in by the service with `default` when not sent: a file without it equals an
        /// object with the default.
        Default = "default",
    }
}

impl Role {
    /// Whether the answer comes from the simulator's state.
    pub fn is_stateful(self) -> bool {
        self != Role::Canned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_others_are_refused() {
        for m in Method::ALL {
            assert_eq!(Method::parse(m.as_str()), Some(*m));
        }
        assert_eq!(PageStyle::QueryParams.as_str(), "page_params");
        assert_eq!(PageStyle::QueryParams.variant(), "QueryParams");
        let err = serde_json::from_str::<Method>("\"FETCH\"")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("method `FETCH` must be GET, POST, PUT, PATCH or DELETE"),
            "{err}"
        );
        let err = serde_json::from_str::<PageStyle>("\"paging_envelope\"")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(
                "pagination style `paging_envelope` must be query_body, page_params or spring"
            ),
            "{err}"
        );
    }
}
