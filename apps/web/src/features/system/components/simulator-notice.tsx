import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from '../api/system-api';

/** In simulator mode, says that no real money moves and where the virtual phone is. */
export function SimulatorNotice() {
  const { data } = useQuery(publicConfigQueryOptions());
  if (data?.mpesaEnv !== 'simulator' || !data.simulatorUrl) return null;
  return (
    <aside className="simulator-notice" aria-label="Simulator mode">
      Payments here are simulated: no real money moves.{' '}
      <a href={data.simulatorUrl} target="_blank" rel="noopener noreferrer">
        Open the Daraja simulator
      </a>{' '}
      to answer prompts on a virtual phone.
    </aside>
  );
}
