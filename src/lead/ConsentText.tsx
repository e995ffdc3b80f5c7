import { useEffect, useState } from 'react'
import { LEAD_CONSENT_ENDPOINT } from './lead-form-state'

type Loaded = { title: string; content: string } | 'loading' | 'failed'

/**
 * The consent text, loaded from `/api/lead-consent` for the site that owns the current page, with
 * a link to its own page in case it cannot be loaded.
 */
export function ConsentText({ url, onTitle }: { url: string; onTitle?: (title: string) => void }) {
  const [text, setText] = useState<Loaded>('loading')

  useEffect(() => {
    let live = true
    fetch(`${LEAD_CONSENT_ENDPOINT}?path=${encodeURIComponent(location.pathname)}`, {
      headers: { accept: 'application/json' },
    })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body: { data: { title: string; content: string } }) => {
        if (!live) return
        setText(body.data)
        onTitle?.(body.data.title)
      })
      .catch(() => {
        if (live) setText('failed')
      })
    return () => {
      live = false
    }
  }, [onTitle])

  return (
    <div className="lead-consent-text" aria-busy={text === 'loading' || undefined}>
      {text === 'loading' && <p>Загрузка…</p>}
      {typeof text === 'object' && text.content.split(/\n\s*\n/).map((paragraph, i) => <p key={i}>{paragraph}</p>)}
      <p>
        <a href={url} target="_blank" rel="noopener">
          {text === 'failed' ? 'Открыть текст согласия' : 'Открыть на отдельной странице'}
        </a>
      </p>
    </div>
  )
}
