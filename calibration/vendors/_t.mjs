import { getTokenizer } from "@anthropic-ai/tokenizer";
import { performance } from "node:perf_hooks";
const tok = getTokenizer();
for (const [label, f] of [["a", n=>"a".repeat(n)], ["space", n=>" ".repeat(n)], ["cjk", n=>Array.from({length:n},(_, i)=>String.fromCharCode(0x4e00 + (i*7919)%20000)).join("")], ["a b", n=>"ab ".repeat(n/3)], ["dash", n=>"-".repeat(n)]]) {
  for (const n of [5000, 10000, 20000, 40000]) {
    const s = f(n); const t = performance.now(); const k = tok.encode(s, "all").length; 
    console.log(label, n, k, (performance.now()-t).toFixed(0)+"ms");
  }
}
