//! What a swap copies from the old AP, read before any write and kept beside the journal (a
//! resumed swap whose old AP is already gone still knows what to copy).

use super::Error;
use super::calls::Connection;
use ruckus_one_catalog::Method;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::path::Path;

/// The fields of an AP that name and place it, copied to the new one.
pub const IDENTITY_FIELDS: [&str; 4] = ["name", "description", "tags", "deviceGps"];

/// The flags by which a per-AP setting says that it follows its venue (or AP group); `false`
/// in either means the AP overrides it.
pub const INHERIT_FLAGS: [&str; 2] = ["useVenueSettings", "useVenueOrApGroupSettings"];

/// The old AP as the swap copies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The old AP's serial number.
    pub old: String,
    /// The new AP's serial number.
    pub new: String,
    /// The venue both are in.
    pub venue_id: String,
    /// The old AP's group, when it is in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_group_id: Option<String>,
    /// The identity fields the old AP has ([`IDENTITY_FIELDS`]).
    pub identity: Map<String, Value>,
    /// The old AP's floor plan and its place on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Each per-AP setting the old AP overrides, in the catalog's order.
    pub settings: Vec<Setting>,
}

/// Where an AP is on a floor plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    /// The floor plan.
    pub floorplan_id: String,
    /// The place (`xPercent`, `yPercent`).
    pub at: Value,
}

/// One per-AP setting the old AP overrides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    /// The last segment of its path (`ledSettings`).
    pub name: String,
    /// The operation that writes it (`update_ap_led_settings`).
    pub update: String,
    /// The setting as read.
    pub body: Value,
}

/// The per-AP settings the catalog has: a read and a write at
/// `/venues/{venueId}/aps/{serialNumber}/<name>` (no other parameter): `(name, read, write)`.
pub fn per_ap_settings(conn: &Connection<'_>) -> Vec<(String, String, String)> {
    const PREFIX: &str = "/venues/{venueId}/aps/{serialNumber}/";
    let routes = &conn.table().routes;
    routes
        .iter()
        .filter(|r| r.method == Method::Get && r.path_params.len() == 2)
        .filter_map(|get| {
            let name = get.path.strip_prefix(PREFIX)?;
            let put = routes
                .iter()
                .find(|r| r.method == Method::Put && r.path == get.path)?;
            Some((name.to_owned(), get.id.clone(), put.id.clone()))
        })
        .collect()
}

/// Whether a per-AP setting as read is the AP's own (one of [`INHERIT_FLAGS`] is `false`).
pub fn overrides(body: &Value) -> bool {
    INHERIT_FLAGS
        .iter()
        .any(|f| body.get(*f) == Some(&Value::Bool(false)))
}

/// Reads what the swap of `old` by `new` copies: the AP's venue (found by its serial), its
/// group, identity fields, floor position and overridden settings.
pub(super) async fn read(conn: &Connection<'_>, old: &str, new: &str) -> Result<Snapshot, Error> {
    if old == new {
        return Err(Error::Refused(format!("{old} would replace itself")));
    }
    let filters = json!({ "serialNumber": [old] });
    let row = conn
        .first_row("query_venue_aps", filters.clone())
        .await?
        .filter(|r| {
            ["serialNumber", "id"]
                .iter()
                .any(|f| text(r, f).as_deref() == Some(old))
        })
        .ok_or_else(|| Error::NotFound(old.to_owned()))?;
    let venue_id = text(&row, "venueId")
        .ok_or_else(|| Error::Answer(format!("the row of AP {old} names no venue")))?;
    let ap = conn
        .read("get_venue_ap", &[&venue_id, old])
        .await?
        .ok_or_else(|| Error::NotFound(old.to_owned()))?;
    if conn
        .read("get_venue_ap", &[&venue_id, new])
        .await?
        .is_some()
    {
        return Err(Error::Refused(format!("{new} is already in the venue")));
    }
    let identity = IDENTITY_FIELDS
        .iter()
        .filter_map(|f| Some(((*f).to_owned(), ap.get(*f)?.clone())))
        .filter(|(_, v)| !v.is_null())
        .collect();
    let position = row.get("floorPosition").and_then(|p| {
        let floorplan_id = text(p, "floorplanId")?;
        let at = json!({"xPercent": p.get("xPercent")?, "yPercent": p.get("yPercent")?});
        Some(Position { floorplan_id, at })
    });
    let mut settings = Vec::new();
    for (name, read, update) in per_ap_settings(conn) {
        let Some(body) = conn.read(&read, &[&venue_id, old]).await? else {
            continue;
        };
        if overrides(&body) {
            settings.push(Setting { name, update, body });
        }
    }
    Ok(Snapshot {
        old: old.to_owned(),
        new: new.to_owned(),
        venue_id,
        ap_group_id: text(&ap, "apGroupId").or_else(|| text(&row, "apGroupId")),
        identity,
        position,
        settings,
    })
}

impl Snapshot {
    /// Writes the snapshot to `path` (through a temporary file renamed over it, so that a
    /// kill leaves the old file or the new one).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_vec_pretty(self).map_err(|e| Error::Journal(e.to_string()))?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| Error::Journal(format!("{}: {e}", path.display())))
    }

    /// The snapshot saved at `path`, if there is one.
    pub fn load(path: &Path) -> Result<Option<Snapshot>, Error> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| Error::Journal(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::Journal(format!("{}: {e}", path.display()))),
        }
    }
}

/// A field's text, when it is a non-empty string.
fn text(v: &Value, field: &str) -> Option<String> {
    v.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_is_the_aps_own_only_when_it_says_so() {
        assert!(overrides(
            &json!({"ledEnabled": false, "useVenueSettings": false})
        ));
        assert!(overrides(&json!({"useVenueOrApGroupSettings": false})));
        assert!(!overrides(
            &json!({"ledEnabled": true, "useVenueSettings": true})
        ));
        assert!(!overrides(&json!({"meshMode": "AUTO"})));
    }

    #[test]
    fn the_led_and_radio_settings_are_per_ap_settings() {
        let client = ruckus_one_runtime::Client::new(
            ruckus_one_runtime::Config::new(ruckus_one_runtime::Credentials::new("i", "s"))
                .token_tenant_id("t"),
            ruckus_one_runtime::internal::described::auth_settings(
                Catalog::get().unwrap().api("network").unwrap().1,
            ),
        )
        .unwrap();
        let conn = Connection::new(&client, None).unwrap();
        let names: Vec<String> = per_ap_settings(&conn).into_iter().map(|s| s.0).collect();
        assert!(names.contains(&"ledSettings".to_owned()), "{names:?}");
        assert!(names.contains(&"radioSettings".to_owned()), "{names:?}");
        assert!(
            !names.contains(&"capabilities".to_owned()),
            "read-only: {names:?}"
        );
    }

    use ruckus_one_catalog::Catalog;
}
