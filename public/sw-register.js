// Registers the service worker and runs the update flow. The app (src/ui/state.rs) listens for
// "rollsheet:update-ready" to show its banner and sends "rollsheet:apply-update" when the player
// presses it; we then activate the waiting worker and reload once it controls the page.
(function () {
  if (!("serviceWorker" in navigator)) return;
  var reloading = false;
  function announce(reg) {
    if (!reg.waiting || !navigator.serviceWorker.controller) return; // first install: nothing to update
    window.rollsheetUpdateReady = true;
    window.dispatchEvent(new CustomEvent("rollsheet:update-ready"));
  }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").then(function (reg) {
      announce(reg);
      reg.addEventListener("updatefound", function () {
        var worker = reg.installing;
        if (!worker) return;
        worker.addEventListener("statechange", function () {
          if (worker.state === "installed") announce(reg);
        });
      });
      window.addEventListener("rollsheet:apply-update", function () {
        if (reg.waiting) reg.waiting.postMessage({ type: "SKIP_WAITING" });
      });
      // A phone keeps the app open for hours: look for a new version when it comes back.
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") reg.update().catch(function () {});
      });
    }).catch(function (e) { console.warn("service worker not registered", e); });
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (reloading || !window.rollsheetUpdateReady) return;
      reloading = true;
      location.reload();
    });
  });
})();
