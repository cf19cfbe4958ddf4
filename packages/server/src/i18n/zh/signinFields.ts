/** The server's Chinese messages: signinFields. */
export const signinFields = {
  noSuchSignField: '注册扩展字段不存在',
  radioCheckboxFieldNeeds: '单选和多选字段需要选项',
  noSuchUser: '用户不存在',
  answeredTwice: '「{{name}}」回答了两次',
  answer: '「{{name}}」的回答{{zh}}',
  requiredFieldNotAnswered: '必填项「{{name}}」未填写',
  noSuchAnswer: '回答不存在',
  answerReplacedNewerOne: '该回答已被新的回答取代',
} as const;
