//! `scaling`: what the report shows of its rows (charts, reading, table).

use crate::experiment::kinds::Tables;
use crate::experiment::kinds::speed::scaling::*;
use crate::experiment::present::Present;
use crate::plot::Chart;
use crate::report::Section;

impl Present for Scaling {
    fn charts(&self, t: &Tables) -> Vec<Chart> {
        super::scaling_report::charts(t)
    }

    fn section(&self, t: &Tables) -> Section {
        super::scaling_report::section(t)
    }
}
