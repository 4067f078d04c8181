//! What each report's columns hold: for each, the fields of a query row it is read from, the
//! first that has a value winning (the service names some fields differently in its AP and
//! switch rows, and in older answers).

use serde_json::Value;

/// One column of rows read from a query: its heading and where its value is.
pub(crate) struct Column {
    pub(crate) name: &'static str,
    /// JSON pointers into the row, tried in order.
    pub(crate) from: &'static [&'static str],
}

const fn col(name: &'static str, from: &'static [&'static str]) -> Column {
    Column { name, from }
}

/// The inventory's columns for an AP row (`query_venue_aps`).
pub(crate) const AP: &[Column] = &[
    col("venue", &["/venueName", "/venueId"]),
    col("name", &["/name"]),
    col("serial", &["/serialNumber"]),
    col("model", &["/model"]),
    col("mac", &["/apMac", "/macAddress"]),
    col("ip", &["/IP", "/networkStatus/ipAddress", "/ip"]),
    col("status", &["/deviceStatus", "/status"]),
    col("firmware", &["/firmwareVersion", "/fwVersion"]),
];

/// The inventory's columns for a switch row (`query_venue_switches`), in the AP's order.
pub(crate) const SWITCH: &[Column] = &[
    col("venue", &["/venueName", "/venueId"]),
    col("name", &["/switchName", "/name"]),
    col("serial", &["/serialNumber", "/activeSerial"]),
    col("model", &["/model"]),
    col("mac", &["/switchMac", "/macAddress"]),
    col("ip", &["/ipAddress", "/ip"]),
    col("status", &["/deviceStatus", "/status"]),
    col("firmware", &["/firmwareVersion", "/firmware", "/version"]),
];

/// The client report's columns (`query_venue_ap_clients`).
pub(crate) const CLIENT: &[Column] = &[
    col(
        "venue",
        &["/venueInformation/name", "/venueName", "/venueId"],
    ),
    col(
        "ap",
        &[
            "/apInformation/name",
            "/apInformation/serialNumber",
            "/apName",
        ],
    ),
    col("mac", &["/macAddress", "/clientMac"]),
    col("ip", &["/ipAddress"]),
    col("hostname", &["/hostname"]),
    col("os", &["/osType"]),
    col("network", &["/networkInformation/ssid", "/ssid"]),
    col("connected_since", &["/connectedTime"]),
];

/// The value of `column` in `row` as text: a string as is, a number or boolean as written,
/// empty when no field has a value.
pub(crate) fn cell(column: &Column, row: &Value) -> String {
    column
        .from
        .iter()
        .filter_map(|p| row.pointer(p))
        .find_map(|v| match v {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_field_with_a_value_wins() {
        let row = json!({"apMac": "", "macAddress": "aa:bb", "IP": "10.0.0.2", "name": "Hall"});
        let mac = AP.iter().find(|c| c.name == "mac").unwrap();
        let ip = AP.iter().find(|c| c.name == "ip").unwrap();
        let firmware = AP.iter().find(|c| c.name == "firmware").unwrap();
        assert_eq!(cell(mac, &row), "aa:bb");
        assert_eq!(cell(ip, &row), "10.0.0.2");
        assert_eq!(cell(firmware, &row), "");
    }

    #[test]
    fn switch_and_ap_columns_line_up() {
        let names = |c: &[Column]| c.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(AP), names(SWITCH));
    }
}
