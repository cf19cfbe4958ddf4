/** The server's Chinese messages: plugins. */
export const plugins = {
  pluginJsonBreaksRule: 'plugin.json 不符合规则（{{field}}）：{{messageZh}}',
  pluginSServerModule: '插件的服务端模块加载失败，插件已停用：{{reason}}',
  pluginPackage: '插件包',
  choosePluginPackage: '请选择插件包',
  noSuchPluginRoute: '插件接口不存在',
  pluginFailed: '插件出错了',
  pluginNotFound: '插件不存在',
  installedNotLowerThan: '已安装 {{nameZh}} {{version}}，不低于上传的 {{version2}}：保留已安装的版本',
  pluginNoSettingNamed: '插件没有名为 {{key}} 的设置项',
  message: '{{labelZh}}{{zh}}',
  familyPluginNotEnabled: '本站未安装或未开启此插件',
} as const;
