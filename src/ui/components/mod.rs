pub mod bar_chart;
pub mod nav;
pub mod notices;
pub mod roll_log;
pub mod roll_result;
pub mod update_banner;
