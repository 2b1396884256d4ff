package brain

import "testing"

// TestOfflineDeathIdioms: everyday speech that dies and kills ("饿死了",
// "my laptop died", "何回も死んだ") is read as what it means, and a real
// death is still a loss (situations.yaml, the comment above loss).
func TestOfflineDeathIdioms(t *testing.T) {
	k := NewOffline().loaded()
	for _, c := range []struct{ text, lead string }{
		{"lol this boss fight is killing me, died like 20 times", "game_deaths"},
		{"died 37 times on that boss", "game_deaths"},
		{"这个游戏太难了，我又死了十几次", "game_deaths"},
		{"这关我死了8次", "game_deaths"},
		{"このゲームのボス強すぎて何回も死んだ", "game_deaths"},
		{"3回死んだ", "game_deaths"},
		{"this boss fight is killing me", "game"},
		{"my laptop finally died for good", "broken"},
		{"my phone just died", "broken"},
		{"スマホの充電が死んだ", "broken"},
		{"我饿死了，晚上吃火锅吧", "hungry"},
		{"お腹すいて死にそう", "hungry"},
		{"困死了，先睡了", "sleepy"},
		{"眠くて死にそう", "sleepy"},
		{"热死了，空调坏了", "heat"},
		{"冷死了", "cold"},
		{"我家的花又养死了", "plant"},
		{"我要被作业压死了", "exhaustion"},
		{"吓死我了", "fright"},
		{"笑死了", "laughing"},
		{"腹筋死んだ", "laughing"},
		{"the cat knocked my cup off the table. goodbye favorite mug 😭", "mishap"},
		{"my grandma died last night", "loss"},
		{"my dog died this morning", "loss"},
		{"my grandpa died, I just played the boss fight all night to not think", "loss"},
		{"我爷爷去世了", "loss"},
		{"我的猫死了", "loss"},
		{"祖母が亡くなった", "loss"},
		{"うちの猫が死んじゃった", "loss"},
	} {
		t.Run(c.text, func(t *testing.T) {
			var names []string
			lead := ""
			for _, s := range k.situationsIn(c.text, "", false) {
				names = append(names, s.Name)
				if lead == "" && s.Kind == kindContent {
					lead = s.Name
				}
			}
			if lead != c.lead {
				t.Errorf("read as %q (situations %v), want %q", lead, names, c.lead)
			}
		})
	}
}
