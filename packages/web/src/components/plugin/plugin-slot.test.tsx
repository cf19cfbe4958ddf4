import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { PluginRegistryContext, PluginSlot, type PluginRegistry } from './plugin-slot';

function registry(components: ReturnType<PluginRegistry['components']>): PluginRegistry {
  return { components: () => components };
}

describe('plugin slots', () => {
  it('render their default content while no plugin fills them', () => {
    const { container } = renderWithApp(
      <PluginSlot target="plugin_index" hook="header_replace">
        <p>default header</p>
      </PluginSlot>,
    );
    expect(screen.getByText('default header')).toBeTruthy();
    expect(container.querySelector('[data-plugin-slot="plugin_index:header_replace"]')).not.toBeNull();
  });

  it('a replace hook swaps the default; an insert hook adds to it', () => {
    const Plugin = () => <p>from plugin</p>;
    renderWithApp(
      <PluginRegistryContext.Provider value={registry([{ pluginName: 'p', Component: Plugin }])}>
        <PluginSlot target="plugin_index" hook="tabs_replace">
          <p>default tabs</p>
        </PluginSlot>
        <PluginSlot target="plugin_index" hook="left_insert">
          <p>default left</p>
        </PluginSlot>
      </PluginRegistryContext.Provider>,
    );
    expect(screen.queryByText('default tabs')).toBeNull();
    expect(screen.getByText('default left')).toBeTruthy();
    expect(screen.getAllByText('from plugin')).toHaveLength(2);
  });

  it('catches a plugin that throws and keeps the default content', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Broken = (): never => {
      throw new Error('boom');
    };
    renderWithApp(
      <PluginRegistryContext.Provider value={registry([{ pluginName: 'broken', Component: Broken }])}>
        <PluginSlot target="plugin_global" hook="footer_replace">
          <p>default footer</p>
        </PluginSlot>
      </PluginRegistryContext.Provider>,
    );
    expect(screen.getByText('default footer')).toBeTruthy();
    expect(warn).toHaveBeenCalled();
  });
});
