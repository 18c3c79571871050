// The course's chart code in one script: our small embed (./embed.js) over the trimmed Vega of
// ./vega.js. charts.js loads it when the first chart nears the viewport and calls window.vegaEmbed;
// vegaEmbed.vega is that Vega (tests/test_vega_bundle.py asks it what it can draw).
import embed from './embed.js';
import * as vega from 'vega';
embed.vega = vega;
globalThis.vegaEmbed = embed;
