/** The server's Chinese messages: groups. */
export const groups = {
  unknownPermission: '未知的权限「{{raw}}」',
  administratorGroupHoldsEvery: '管理员组拥有全部权限，无需设置',
  noSuchUserGroup: '用户组不存在',
  userGroupNamedExists: '用户组「{{name}}」已存在',
  userGroupAppearsTwice: '同一个用户组出现了两次',
  noSuchUserGroup2: '用户组不存在',
  typeSystemPresetGroup: '系统和预置用户组的类型不能修改',
  administratorGroupUndeletable: '管理员组不能删除',
  guestGroupUndeletable: '游客组不能删除',
  defaultGroupUndeletable: '默认用户组不能删除',
  userGroupDoesNot: '用户组 {{id}} 不存在',
  thereNoDefaultGroup: '没有默认用户组',
} as const;
