// The book's one stylesheet (nbcourse_book/src/nbcourse_book/stylesheet.py):
// node bundle.js <html folder> <output css in _static> <stylesheet>...  Joins the stylesheets
// (paths in the html folder) in the given order, their @imports inlined (postcss-import) and
// their URLs made relative to the output (postcss-url), then keeps with PurgeCSS the rules that
// name something in a page or in a script of _static (the search index aside).
const fs = require("fs"), path = require("path");
const postcss = require("postcss"), {PurgeCSS} = require("purgecss");
const [root, out, ...sheets] = process.argv.slice(2);
const join = postcss([require("postcss-import")(), require("postcss-url")({url: "rebase"})]);
Promise.all(sheets.map(name => path.join(root, name))
  .map(from => join.process(fs.readFileSync(from, "utf8"), {from, to: out})))
  .then(joined => new PurgeCSS().purge({
    content: [root + "/**/*.html", root + "/_static/**/*.js"],
    skippedContentGlobs: [root + "/_static/searchindex.js"],
    css: [{raw: joined.map(r => r.css).join("\n")}]}))
  .then(r => fs.writeFileSync(out, r[0].css))
  .catch(e => { console.error(e.message); process.exit(1); });
