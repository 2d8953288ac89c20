/**
 * The page's scripts are fetched once it has painted (decision 075).
 *
 * Remix writes the scripts that hydrate a page as `<link rel="modulepreload">`
 * tags and one inline module script at the end of the body; the browser's
 * preload scanner requests all of them (28 files on `/shop`) at once, at high
 * priority, beside the stylesheets, fonts and product pictures the first paint
 * needs. Every storefront page works without JavaScript, so a page is usable
 * from its first paint and hydration only enhances it: its scripts need not
 * compete with what the visitor is waiting to see.
 *
 * The server (app/utils/page-stream.server.ts) renames the preload links' rel
 * and the module script's type to values a browser ignores; the starter below
 * (inline in the head, with the page's nonce) restores them after the first
 * frame has been painted, which fetches the same files and runs the same
 * module. Only attributes change, so the document React hydrates is the one it
 * rendered.
 */

/** What a preload link's rel is until the page has painted. */
export const PRELOAD_AFTER_PAINT = "modulepreload-after-paint";

/** What Remix's module script's type is until the page has painted: a type the browser does not run. */
export const MODULE_AFTER_PAINT = "module-after-paint";

/**
 * Runs in the page, before anything else. Once the browser reports the page's
 * first contentful paint (a "paint" performance entry, given once the frame is
 * on screen), it turns the links back into module preloads and runs a copy of
 * the module script, which hydrates the page. A page still streaming at that
 * moment may not have its module script yet, or only part of its text (the
 * parser shows an element before its end has arrived): it looks again at each
 * frame until the parser has gone past the script (a node after it, or the
 * document parsed), since a copy of a cut script would never hydrate. Where paint
 * entries are not reported (or the observer refuses its options, as older
 * browsers do), the first frame stands for the paint (a task
 * queued from a requestAnimationFrame callback runs once that frame is made).
 * The copy carries the page's nonce: read as a property where the browser
 * hides the attribute from scripts, as the attribute where it has no such
 * property (Safari before 15.4), and set as the attribute, which every browser
 * checks. A tab opened in the background paints nothing until it is shown: there the
 * scripts start two seconds after the page's load event. (Not at the load
 * event itself: a page's paint is often reported after its load event, and
 * the scripts would then compete with the first paint again.)
 */
export const scriptsAfterPaintStarter = `(function () {
  var started = false;
  function start() {
    if (started) return true;
    var module = document.querySelector('script[type="${MODULE_AFTER_PAINT}"]');
    if (!module || (!module.nextSibling && document.readyState === "loading")) return false;
    started = true;
    var links = document.querySelectorAll('link[rel="${PRELOAD_AFTER_PAINT}"]');
    for (var i = 0; i < links.length; i++) links[i].rel = "modulepreload";
    var script = document.createElement("script");
    script.type = "module";
    script.setAttribute("nonce", module.nonce || module.getAttribute("nonce") || "");
    script.textContent = module.textContent;
    document.head.appendChild(script);
    return true;
  }
  function startOrWait() {
    if (!start() && document.readyState === "loading") afterFrame();
  }
  function afterFrame() {
    requestAnimationFrame(function () {
      setTimeout(startOrWait, 0);
    });
  }
  var observer = window.PerformanceObserver;
  try {
    if (!observer || (observer.supportedEntryTypes || []).indexOf("paint") < 0) throw 0;
    new observer(function (list, self) {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      self.disconnect();
      startOrWait();
    }).observe({ type: "paint", buffered: true });
  } catch (error) {
    afterFrame();
  }
  addEventListener("load", function () {
    setTimeout(start, 2000);
  }, { once: true });
})();`;
