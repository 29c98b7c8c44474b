// PurgeCSS over the book's joined stylesheets (nbcourse_book/src/nbcourse_book/stylesheet.py):
// node purge.js <joined css> <output css> <html folder>.  Keeps the rules that name something
// in a page or in a script of _static (the search index aside).
const {PurgeCSS} = require("purgecss");
const [css, out, root] = process.argv.slice(2);
new PurgeCSS().purge({content: [root + "/**/*.html", root + "/_static/**/*.js"],
                      skippedContentGlobs: [root + "/_static/searchindex.js"], css: [css]})
  .then(r => require("fs").writeFileSync(out, r[0].css))
  .catch(e => { console.error(e.message); process.exit(1); });
