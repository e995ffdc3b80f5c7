// The back office's browser start-up (https://vike.dev/client): a Vike-rendered single page, so
// none of the public pages' islands (renderer/+client.ts).
import { reloadOnStaleChunk } from '../../src/ui/stale-chunk-reload'

reloadOnStaleChunk()
