// https://vike.dev/Page — where the no-JS form lands after a stored lead (303 from /api/feedback).
import './spasibo.css'
import { LEAD_SENT_TEXT, LEAD_SENT_TITLE } from '../../src/lead/lead-form-state'

export function Page() {
  return (
    <div className="container lead-page">
      <h1>{LEAD_SENT_TITLE}</h1>
      <p>{LEAD_SENT_TEXT}</p>
      <p>
        <a href="/">Вернуться на главную</a>
      </p>
    </div>
  )
}
