// kenning cockpit: optional niceties only. Every page works without this file.
// "/" focuses the first search field (as on many sites), unless typing in a field already.
document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  const active = document.activeElement;
  if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.isContentEditable)) return;
  const field = document.querySelector('input[type="search"]');
  if (field) { event.preventDefault(); field.focus(); field.select(); }
});
