/** The settings (config.ts): where the simulator listens is its own setting, never the app's HOST. */
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES, SimulatorConfigError, loadSimulatorConfig } from './config.ts';

describe('where the simulator listens', () => {
  it("is 127.0.0.1 whatever the app's HOST says", () => {
    expect(loadSimulatorConfig({ HOST: '0.0.0.0' }).host).toBe('127.0.0.1');
    expect(SETTING_NAMES).not.toContain('HOST');
  });

  it('is SIM_HOST when set', () => {
    expect(loadSimulatorConfig({ HOST: '127.0.0.1', SIM_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadSimulatorConfig({ SIM_HOST: '::' }).host).toBe('::');
    expect(loadSimulatorConfig({ SIM_HOST: ' sim.lan ' }).host).toBe('sim.lan');
  });

  it('keeps the control API to this machine unless SIM_REMOTE_CONTROL says otherwise', () => {
    expect(loadSimulatorConfig({}).remoteControl).toBe(false);
    expect(loadSimulatorConfig({ SIM_REMOTE_CONTROL: 'true' }).remoteControl).toBe(true);
    expect(loadSimulatorConfig({ SIM_REMOTE_CONTROL: '0' }).remoteControl).toBe(false);
  });

  it.each([
    ['SIM_HOST', '', 'SIM_HOST must be an IP address or a host name'],
    ['SIM_HOST', 'http://0.0.0.0', 'SIM_HOST must be an IP address or a host name'],
    ['SIM_HOST', '0.0.0.0:3001', 'SIM_HOST must be an IP address or a host name'],
    ['SIM_REMOTE_CONTROL', 'yes', 'SIM_REMOTE_CONTROL'],
  ])('refuses %s=%j, naming the setting', (name, value, message) => {
    expect(() => loadSimulatorConfig({ [name]: value })).toThrow(SimulatorConfigError);
    expect(() => loadSimulatorConfig({ [name]: value })).toThrow(new RegExp(`^${message}`));
  });
});

describe('timings', () => {
  it.each([
    ['SIM_PROMPT_TIMEOUT_S', '3000000', 'SIM_PROMPT_TIMEOUT_S must be at most 86400'],
    ['SIM_AUTO_APPROVE_S', '86401', 'SIM_AUTO_APPROVE_S must be at most 86400'],
    ['SIM_CALLBACK_DELAY_MS', '99999999999', 'SIM_CALLBACK_DELAY_MS must be at most 86400000'],
    ['SIM_CALLBACK_TIMEOUT_MS', '600001', 'SIM_CALLBACK_TIMEOUT_MS must be at most 600000'],
    ['SIM_TOKEN_TTL_S', '1e15', 'SIM_TOKEN_TTL_S must be at most 31536000'],
  ])(
    'refuses %s=%s, beyond what a date or a timer can hold, naming the bound',
    (name, value, message) => {
      expect(() => loadSimulatorConfig({ [name]: value })).toThrow(new RegExp(`^${message}$`));
    },
  );

  it('takes the longest allowed', () => {
    const config = loadSimulatorConfig({
      SIM_PROMPT_TIMEOUT_S: '86400',
      SIM_TOKEN_TTL_S: '31536000',
    });
    expect([config.promptTimeoutS, config.tokenTtlS]).toEqual([86_400, 31_536_000]);
  });
});
