//! How a paged operation selects its pages.

/// How a paged operation selects its pages (generated code passes one per paged operation).
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    /// Where the page number goes.
    pub style: PageStyle,
    /// Field of the response that holds the page's items.
    pub items: &'static str,
    /// Number of the first page.
    pub first_page: u32,
}

/// Where the page number of a paged operation goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStyle {
    /// The `page` query parameter.
    QueryParams,
    /// The `page` field of the JSON request body.
    QueryBody,
    /// A Spring Data page: the page number in the `page` query parameter
    /// (pages usually count from 0), the page size in `size` (a `size` or
    /// `sort` set by the caller is kept). The answer's `last`,
    /// `totalPages`, `totalElements` and `size` also end the stream.
    Spring,
}
