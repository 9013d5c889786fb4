fn main() {
    rollsheet::ui::start();
}
