//! The regions hosting accounts.

use crate::operation::Hosts;

/// The region hosting the account.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Region {
    /// Asia (`api.asia.ruckus.cloud`).
    Asia,
    /// Europe (`api.eu.ruckus.cloud`).
    Europe,
    /// North America (`api.ruckus.cloud`), the default.
    #[default]
    NorthAmerica,
}

impl Region {
    /// The region named `name`, in any case, surrounding white space
    /// ignored: `na`, `us`, `north-america` or `northamerica`; `eu` or
    /// `europe`; `asia`, `ap` or `apac`. `None` for anything else.
    ///
    /// ```
    /// # extern crate ruckus_one_runtime as ruckus_one;
    /// use ruckus_one::Region;
    /// assert_eq!(Region::from_name(" EU "), Some(Region::Europe));
    /// assert_eq!(Region::from_name("mars"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Region> {
        match name.trim().to_ascii_lowercase().as_str() {
            "na" | "us" | "north-america" | "northamerica" => Some(Region::NorthAmerica),
            "eu" | "europe" => Some(Region::Europe),
            "asia" | "ap" | "apac" => Some(Region::Asia),
            _ => None,
        }
    }

    /// The main API host of the region, which also serves the token
    /// endpoint and is the value of `{host}` in token URL templates.
    pub fn api_host(self) -> &'static str {
        match self {
            Region::Asia => "https://api.asia.ruckus.cloud",
            Region::Europe => "https://api.eu.ruckus.cloud",
            Region::NorthAmerica => "https://api.ruckus.cloud",
        }
    }

    /// Picks this region's entry of an API's hosts.
    pub fn host_of(self, hosts: &Hosts) -> &'static str {
        match self {
            Region::Asia => hosts.asia,
            Region::Europe => hosts.europe,
            Region::NorthAmerica => hosts.north_america,
        }
    }
}
