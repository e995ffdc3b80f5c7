// https://vike.dev/error-page — 404 shows the heading and text of the contract; other statuses
// (a failed data load, 410, 500…) show only the icon with their code.
import { usePageContext } from 'vike-react/usePageContext'
import errorIcon from './error-icon.svg'
import './error.css'

export function Page() {
  const { is404, abortStatusCode } = usePageContext()
  const status = is404 ? 404 : typeof abortStatusCode === 'number' ? abortStatusCode : 500
  return (
    <div className="container error-view" data-status={status}>
      <img className="error-view__icon" src={errorIcon} alt={`Ошибка ${status}`} width={120} height={120} />
      {status === 404 ? (
        <>
          <h1>Страницы не существует:(</h1>
          <p>Возможно, когда-то она была, но сейчас ее нет.</p>
        </>
      ) : (
        <p className="error-view__code" aria-hidden="true">
          {status}
        </p>
      )}
    </div>
  )
}
